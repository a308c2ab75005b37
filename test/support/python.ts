import { execFile, spawnSync } from 'node:child_process';
import { describeWithPrerequisite } from './prerequisite';

/**
 * Debian's Python with its `python3-authlib` and `python3-requests` (scripts/ci-python.sh installs
 * them in CI): the system interpreter, not whichever python3 comes first on PATH.
 */
export const PYTHON = '/usr/bin/python3';

/** Authlib's requests client, the one the scripts use (it needs `requests` besides Authlib). */
const AUTHLIB_CHECK = 'import authlib.integrations.requests_client';

/** `describe` for suites that run a Python script on Authlib (test/support/prerequisite.ts). */
export function describeWithPythonAuthlib(name: string, suite: () => void): void {
  describeWithPrerequisite(
    name,
    {
      present: spawnSync(PYTHON, ['-c', AUTHLIB_CHECK], { stdio: 'ignore' }).status === 0,
      needs: `Authlib with requests for ${PYTHON}`,
      install: 'apt-get install python3-authlib python3-requests',
      ciScript: 'scripts/ci-python.sh',
      kind: 'PYTHON',
    },
    suite,
  );
}

/**
 * Runs a Python script with `env` added to the environment (secrets go there, never on the
 * command line); resolves with its exit code and what it printed.
 */
export function runPython(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      PYTHON,
      [script],
      { env: { ...process.env, ...env }, timeout: 20_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}
