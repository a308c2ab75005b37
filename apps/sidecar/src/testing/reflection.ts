import { dirname, join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { loadProto } from '@platform/grpc';
import { FileDescriptorProto } from 'protobufjs/ext/descriptor';

type ReflectionAnswer = {
  list_services_response?: { service: Array<{ name: string }> };
  file_descriptor_response?: { file_descriptor_proto: Buffer[] };
  error_response?: { error_message: string };
};

/** The service names a server lists through gRPC server reflection (grpc.reflection.v1). */
export function listServices(address: string): Promise<string[]> {
  return ask(address, { list_services: '' }, (answer) =>
    (answer.list_services_response?.service ?? []).map((service) => service.name),
  );
}

/**
 * What reflection answers for a symbol (grpcurl's `describe`): the file holding it and every file
 * it depends on, each as its name and the messages it defines.
 */
export function filesContaining(
  address: string,
  symbol: string,
): Promise<Array<{ name: string; messages: string[] }>> {
  return ask(address, { file_containing_symbol: symbol }, (answer) => {
    if (answer.error_response) throw new Error(answer.error_response.error_message);
    return (answer.file_descriptor_response?.file_descriptor_proto ?? []).map((bytes) => {
      const file = FileDescriptorProto.decode(bytes) as unknown as {
        name: string;
        messageType: Array<{ name: string }>;
      };
      return { name: file.name, messages: file.messageType.map((message) => message.name) };
    });
  });
}

function ask<T>(address: string, request: object, read: (answer: ReflectionAnswer) => T): Promise<T> {
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
      try {
        resolve(read(answer));
      } catch (error) {
        reject(error as Error);
      }
      stream.end();
      client.close();
    });
    stream.on('error', reject);
    stream.write(request);
  });
}
