'use strict';
/**
 * Preloaded (NODE_OPTIONS=--require, which Node 20 allows where it refuses --cpu-prof) into the
 * processes of a `--cpu-prof` run: profiles the whole process with the inspector and, on
 * SIGTERM or SIGINT, writes `<BENCH_CPU_PROF_DIR>/cpu-<pid>.cpuprofile` and exits. It runs
 * before the application's own signal listeners (Nest re-raises the signal, which would end
 * the process before the profile is written).
 */
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  let written = false;
  const stop = () => {
    if (written) return;
    written = true;
    // An in-process session answers synchronously: the file is written before we exit.
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(join(dir, `cpu-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
      process.exit(0);
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
