#!/usr/bin/env node
// Generates the TypeScript types of every message and service in proto/ with @grpc/proto-loader's
// own generator, using the loader options of libs/grpc (src/index.ts, PROTO_LOADER_OPTIONS), so the
// types describe exactly what the loader decodes. Usage: generate-types.mjs [outDir]
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const protoRoot = join(repoRoot, 'proto');
const outDir = resolve(process.argv[2] ?? join(here, '../src/generated'));

const protoFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? protoFiles(join(dir, entry.name))
      : entry.name.endsWith('.proto')
        ? [join(dir, entry.name)]
        : [],
  );

const generator = createRequire(import.meta.url).resolve(
  '@grpc/proto-loader/build/bin/proto-loader-gen-types.js',
);
rmSync(outDir, { recursive: true, force: true });
execFileSync(
  process.execPath,
  [
    generator,
    '--keepCase',
    '--longs=Number',
    '--enums=String',
    '--defaults',
    '--oneofs',
    '--includeComments',
    '--grpcLib=@grpc/grpc-js',
    // Relative to the repository root: the generated headers name the .proto file the same on every machine.
    '--includeDirs=proto',
    `--outDir=${outDir}`,
    ...protoFiles(protoRoot)
      .map((file) => relative(protoRoot, file))
      .sort(),
  ],
  { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] },
);
// proto/google/ holds message types only (the richer error model's details): their per-file
// package roots describe no service and would not compile under noUnusedLocals.
for (const file of protoFiles(join(protoRoot, 'google'))) {
  rmSync(join(outDir, `${basename(file, '.proto')}.ts`));
}
