import { cpus, totalmem, release, platform, arch } from 'node:os';

/** The machine the benchmark ran on (no host name, nothing identifying). */
export function describeMachine() {
  const cores = cpus();
  return {
    cpu: cores[0]?.model.trim() ?? 'unknown',
    cores: cores.length,
    memoryGiB: Math.round((totalmem() / 1073741824) * 10) / 10,
    os: `${platform()} ${release()} ${arch()}`,
    node: process.version,
  };
}
