import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProto, PROTO_ROOT } from '@platform/grpc';

const REPO_ROOT = join(PROTO_ROOT, '..');
/** A service as the docs name it, qualified by its package: `platform.auth.v1.AuthService`. */
const QUALIFIED_SERVICE = /`(platform\.\w+\.v1\.\w+)`/;

/** `package.Service` -> its RPC names, from the `service X {` declarations of proto/platform/. */
function protoServices(): Map<string, string[]> {
  const services = new Map<string, string[]>();
  const files = (readdirSync(join(PROTO_ROOT, 'platform'), { recursive: true }) as string[]).filter((file) =>
    file.endsWith('.proto'),
  );
  for (const file of files) {
    const text = readFileSync(join(PROTO_ROOT, 'platform', file), 'utf8');
    const pkg = /^package\s+([\w.]+)\s*;/m.exec(text)?.[1];
    for (const [, name, body] of text.matchAll(/^service\s+(\w+)\s*\{([^}]*)\}/gm)) {
      const rpcs = [...body.matchAll(/^\s*rpc\s+(\w+)\s*\(/gm)].map(([, rpc]) => rpc);
      services.set(`${pkg}.${name}`, rpcs);
    }
  }
  return services;
}

/** The text of `heading`'s section of a Markdown file, up to the next heading of its level. */
function section(file: string, heading: string): string {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file} has no "${heading}"`);
  const level = heading.slice(0, heading.indexOf(' ') + 1);
  const end = text.indexOf(`\n${level}`, start + heading.length + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

const namedIn = (text: string): string[] =>
  [...text.matchAll(new RegExp(QUALIFIED_SERVICE, 'g'))].map(([, name]) => name).sort();

describe('the documented sidecar services', () => {
  const services = protoServices();
  const declared = [...services.keys()].sort();

  it('reads the .proto files as the proto loader does (the parse misses no service or RPC)', () => {
    const files = (readdirSync(join(PROTO_ROOT, 'platform'), { recursive: true }) as string[]).filter(
      (file) => file.endsWith('.proto'),
    );
    const loaded = files.flatMap((file) =>
      Object.entries(loadProto(join('platform', file)))
        // Messages and enums carry `format`; a service is its methods.
        .filter(([, definition]) => !('format' in definition))
        .map(([name, definition]) => [name, Object.keys(definition).sort()] as const),
    );

    expect(new Map(loaded)).toEqual(new Map([...services].map(([name, rpcs]) => [name, [...rpcs].sort()])));
  });

  it("are the root README's list: each .proto service once, nothing that is gone", () => {
    expect(namedIn(section('README.md', '## Architecture'))).toEqual(declared);
  });

  it("are apps/sidecar/README.md's table, each row with its service's RPCs", () => {
    const rows = section('apps/sidecar/README.md', '## Services')
      .split('\n')
      .filter((line) => line.startsWith('|') && QUALIFIED_SERVICE.test(line));
    const documented = new Map(
      rows.map((row) => {
        const [service, rpcs] = row.split('|').slice(1, 3);
        return [namedIn(service)[0], [...rpcs.matchAll(/`(\w+)`/g)].map(([, rpc]) => rpc).sort()];
      }),
    );

    expect([...documented.keys()].sort()).toEqual(declared);
    for (const [service, rpcs] of services)
      expect({ service, rpcs: documented.get(service) }).toEqual({ service, rpcs: [...rpcs].sort() });
  });
});
