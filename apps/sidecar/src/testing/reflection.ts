import { dirname, join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { loadProto } from '@platform/grpc';

type ReflectionAnswer = { list_services_response?: { service: Array<{ name: string }> } };

/** The service names a server lists through gRPC server reflection (grpc.reflection.v1). */
export function listServices(address: string): Promise<string[]> {
  const protoFile = join(
    dirname(require.resolve('@grpc/reflection')),
    '..',
    'proto',
    'grpc',
    'reflection',
    'v1',
    'reflection.proto',
  );
  const pkg = grpc.loadPackageDefinition(loadProto(protoFile)) as unknown as {
    grpc: { reflection: { v1: { ServerReflection: grpc.ServiceClientConstructor } } };
  };
  const client = new pkg.grpc.reflection.v1.ServerReflection(
    address,
    grpc.credentials.createInsecure(),
  ) as unknown as grpc.Client & {
    ServerReflectionInfo(): grpc.ClientDuplexStream<unknown, ReflectionAnswer>;
  };
  return new Promise((resolve, reject) => {
    const stream = client.ServerReflectionInfo();
    stream.on('data', (answer: ReflectionAnswer) => {
      resolve((answer.list_services_response?.service ?? []).map((service) => service.name));
      stream.end();
      client.close();
    });
    stream.on('error', reject);
    stream.write({ list_services: '' });
  });
}
