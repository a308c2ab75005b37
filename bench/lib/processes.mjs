import { readdirSync, readFileSync } from 'node:fs';

/**
 * Everything the harness starts registers its stop function here, so a failure, Ctrl+C or
 * SIGTERM still stops every process: stops run newest first; a second Ctrl+C (or the process
 * exiting anyway) SIGKILLs whatever is left. After a signal nothing new may start
 * (`assertRunning`), and a stop registered late runs at once.
 */
const stops = [];
const children = new Set();
let stopping;
let signalled;
let keepingLogs = false;
/** A stop that takes longer than this is given up on; its process is SIGKILLed at the end. */
const STOP_TIMEOUT_MS = 10_000;

/** The run was interrupted by a signal; not a failure of the benchmark. */
export class Interrupted extends Error {
  name = 'Interrupted';
}

/** Whether a signal asked the harness to stop (what fails after that is no failure of its own). */
export const interrupted = () => signalled !== undefined;

/** Throws `Interrupted` once a signal asked the harness to stop. */
export function assertRunning() {
  if (signalled) throw new Interrupted(`interrupted by ${signalled}`);
}

/** Registers a stop function; once cleanup has begun, it runs at once instead. */
export function onCleanup(stop) {
  if (stopping) {
    stopping = stopping.then(() => withTimeout(stop));
    return;
  }
  stops.push(stop);
}

/** Asks the cleanup to keep the processes' log files (after a failure, to read them). */
export function keepLogs() {
  keepingLogs = true;
}

export const keepsLogs = () => keepingLogs;

/** Remembers a child process so that it can be killed synchronously as a last resort. */
export function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Runs every registered stop (newest first), once; later calls await the same run. */
export function cleanup() {
  stopping ??= (async () => {
    while (stops.length > 0) await withTimeout(stops.pop());
    killAll();
  })();
  return stopping;
}

async function withTimeout(stop) {
  let timer;
  try {
    await Promise.race([stop(), new Promise((resolve) => (timer = setTimeout(resolve, STOP_TIMEOUT_MS)))]);
  } catch (error) {
    console.error(`cleanup: ${error.message}`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * SIGKILLs every process still running that the harness started: those it tracks, and every
 * direct child process of this one (a platform still starting is not tracked yet).
 */
function killAll() {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const pid of childPids()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Pids whose parent is this process, from /proc. */
function childPids() {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

/** Ctrl+C and SIGTERM stop everything, then exit; a second signal kills at once. */
export function installSignalHandlers() {
  const onSignal = (signal) => {
    if (signalled) {
      killAll();
      process.exit(130);
    }
    signalled = signal;
    console.error(`\n${signal}: stopping every process the benchmark started...`);
    cleanup().finally(() => {
      killAll();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', killAll);
}
