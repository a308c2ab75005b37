import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc/<pid>/stat counts times in these ticks. */
const TICKS_PER_SECOND = 100;

/** Resident set size of a process in bytes, from /proc/<pid>/status (VmRSS); NaN when unreadable. */
export function readRss(pid) {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces). */
function statFields(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU seconds (user + system, all threads) the process has used so far; NaN when unreadable. */
export function cpuSeconds(pid) {
  try {
    const fields = statFields(pid);
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds the whole machine has spent busy (every core, everything but idle and iowait). */
export function machineBusySeconds() {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = ticks;
  return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
}

/** How long ago (ms, 10 ms resolution) the process started; NaN when unreadable. */
export function processAgeMs(pid) {
  try {
    const startTicks = Number(statFields(pid)[19]);
    const uptimeSeconds = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    return uptimeSeconds * 1000 - (startTicks * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/**
 * Watches named processes: `idle()` records each one's RSS; `during(promise)` samples RSS every
 * `intervalMs` while a load runs (keeping the peak per process) and answers the CPU each one
 * used meanwhile, in percent of one core.
 */
export class ProcessSampler {
  #pids = new Map();
  #idle = new Map();
  #peak = new Map();

  constructor(intervalMs = 250) {
    this.intervalMs = intervalMs;
  }

  add(name, pid) {
    this.#pids.set(name, pid);
  }

  /** name -> pid of every process watched. */
  pids() {
    return Object.fromEntries(this.#pids);
  }

  /** Records the idle RSS of each process not recorded yet (those added since the last call). */
  idle() {
    for (const [name, pid] of this.#pids) if (!this.#idle.has(name)) this.#idle.set(name, readRss(pid));
  }

  /**
   * Runs until `promise` settles; answers `{ result, cpu: { name: percent of one core }, rss:
   * { name: peak MiB meanwhile } }`, with `cpu.other`: what processes this sampler does not watch
   * used meanwhile (other work on the machine).
   */
  async during(promise) {
    const peaks = new Map();
    const sample = () => {
      for (const [name, pid] of this.#pids) {
        const rss = readRss(pid);
        if (rss > (this.#peak.get(name) ?? 0)) this.#peak.set(name, rss);
        if (rss > (peaks.get(name) ?? 0)) peaks.set(name, rss);
      }
    };
    const cpuBefore = new Map([...this.#pids].map(([name, pid]) => [name, cpuSeconds(pid)]));
    const machineBefore = machineBusySeconds();
    const started = performance.now();
    sample();
    const timer = setInterval(sample, this.intervalMs);
    try {
      const result = await promise;
      const elapsed = (performance.now() - started) / 1000;
      const cpu = {};
      let watched = 0;
      for (const [name, pid] of this.#pids) {
        const used = cpuSeconds(pid) - cpuBefore.get(name);
        watched += used;
        cpu[name] = Math.round((100 * used) / elapsed);
      }
      cpu.other = Math.max(0, Math.round((100 * (machineBusySeconds() - machineBefore - watched)) / elapsed));
      sample();
      return { result, cpu, rss: Object.fromEntries([...peaks].map(([name, bytes]) => [name, mib(bytes)])) };
    } finally {
      clearInterval(timer);
      sample();
    }
  }

  /** One row per process: idle and peak-under-load RSS in MiB. */
  report() {
    return [...this.#pids.keys()].map((name) => ({
      process: name,
      idleMiB: mib(this.#idle.get(name)),
      loadMiB: mib(this.#peak.get(name)),
    }));
  }
}

const mib = (bytes) => (bytes === undefined || Number.isNaN(bytes) ? null : Math.round(bytes / 1048576));
