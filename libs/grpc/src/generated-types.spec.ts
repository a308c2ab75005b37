import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const GENERATED = join(__dirname, 'generated');
const GENERATOR = join(__dirname, '..', 'scripts', 'generate-types.mjs');

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );

const contents = (dir: string): Record<string, string> =>
  Object.fromEntries(files(dir).map((file) => [relative(dir, file), readFileSync(file, 'utf8')]));

describe('generated gRPC types', () => {
  it('are what proto/ generates today (run `npm run proto:generate` after changing a .proto file)', () => {
    const fresh = mkdtempSync(join(tmpdir(), 'grpc-types-'));
    try {
      execFileSync(process.execPath, [GENERATOR, fresh]);
      expect(contents(GENERATED)).toEqual(contents(fresh));
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
