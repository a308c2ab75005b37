import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROFILER = fileURLToPath(new URL('./cpu-profiler.cjs', import.meta.url));

/**
 * Environment that makes a Node process write a V8 CPU profile into `dir` when it is stopped
 * (see cpu-profiler.cjs).
 */
export function profilingEnv(dir) {
  const absolute = resolve(dir);
  mkdirSync(absolute, { recursive: true });
  return {
    BENCH_CPU_PROF_DIR: absolute,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require=${JSON.stringify(PROFILER)}`.trim(),
  };
}
