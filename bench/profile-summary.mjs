#!/usr/bin/env node
/**
 * Summarizes V8 CPU profiles (from `node bench/run.mjs --cpu-prof <dir>`): for each profile,
 * the functions with the most self time and the same time grouped by package.
 *
 *   node bench/profile-summary.mjs <dir | file.cpuprofile>... [--top 25] [--callers <function>]
 *
 * `--callers` also lists the call paths (five frames up) that lead to the named function.
 * `--load <text>` keeps only the samples taken while a measured load whose name contains <text>
 * ran (the harness writes the loads' times to <dir>/loads.json).
 *
 * When <dir>/processes.json exists (written by the harness), profiles are named after the
 * process they came from.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: {
    top: { type: 'string', default: '25' },
    callers: { type: 'string' },
    load: { type: 'string' },
  },
  allowPositionals: true,
});
const top = Number(values.top);
if (positionals.length === 0) {
  console.error(
    'usage: node bench/profile-summary.mjs <dir | file.cpuprofile>... [--top 25] [--callers <f>] [--load <text>]',
  );
  process.exit(2);
}

const ROOT = new URL('..', import.meta.url).pathname;

function processNames(dir) {
  const file = join(dir, 'processes.json');
  if (!existsSync(file)) return new Map();
  const byName = JSON.parse(readFileSync(file, 'utf8'));
  return new Map(Object.entries(byName).map(([name, pid]) => [String(pid), name]));
}

/** The [from, to] microsecond windows of the measured loads named like `text`, from loads.json. */
function loadWindows(dir, text) {
  const file = join(dir, 'loads.json');
  if (!existsSync(file)) throw new Error(`--load needs ${file}, written by bench/run.mjs --cpu-prof`);
  const windows = JSON.parse(readFileSync(file, 'utf8')).filter((load) => load.name.includes(text));
  if (windows.length === 0) throw new Error(`no measured load named like "${text}" in ${file}`);
  return windows.map(({ from, to }) => [from, to]);
}

function summarize(file, names, windows) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const pid = /(?:cpu-|\.)(\d+)(?:\.\d+\.\d+)?\.cpuprofile$/.exec(basename(file))?.[1];
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (windows && !windows.some(([from, to]) => at >= from && at <= to)) continue;
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + delta);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const functions = new Map();
  const packages = new Map();
  let idle = 0;
  for (const [id, micros] of self) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    if (functionName === '(idle)') idle += micros;
    const where = location(url);
    const name = `${functionName || '(anonymous)'}  ${where}${url ? `:${lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + micros);
    const pkg = packageOf(functionName, url);
    packages.set(pkg, (packages.get(pkg) ?? 0) + micros);
  }
  const busy = total - idle;
  const pct = (micros) => `${((100 * micros) / total).toFixed(1).padStart(5)}%`;
  console.log(
    `\n== ${names.get(pid) ?? basename(file)} (${basename(file)}): ${(total / 1e6).toFixed(1)} s sampled, ` +
      `${((100 * busy) / total).toFixed(0)}% busy`,
  );
  console.log('-- self time by package');
  for (const [pkg, micros] of sorted(packages).slice(0, 15)) console.log(`${pct(micros)}  ${pkg}`);
  console.log(`-- top ${top} functions by self time`);
  for (const [name, micros] of sorted(functions).slice(0, top)) console.log(`${pct(micros)}  ${name}`);
  if (values.callers) printCallers(profile, self, values.callers, pct);
}

/** The call paths (innermost first) that spend self time in the function named `target`. */
function printCallers(profile, self, target, pct) {
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
  const paths = new Map();
  for (const node of profile.nodes) {
    if (node.callFrame.functionName !== target) continue;
    const frames = [];
    for (let up = parent.get(node.id); up && frames.length < 5; up = parent.get(up.id)) {
      const { functionName, url, lineNumber } = up.callFrame;
      frames.push(`${functionName || '(anonymous)'} ${location(url)}:${lineNumber + 1}`);
    }
    const path = frames.join(' <- ');
    paths.set(path, (paths.get(path) ?? 0) + (self.get(node.id) ?? 0));
  }
  console.log(`-- callers of ${target}`);
  for (const [path, micros] of sorted(paths).slice(0, 10)) console.log(`${pct(micros)}  ${path}`);
}

const sorted = (map) => [...map.entries()].sort((a, b) => b[1] - a[1]);

function location(url) {
  if (!url) return '';
  const path = url.replace(/^file:\/\//, '');
  return path.startsWith(ROOT) ? relative(ROOT, path) : path;
}

function packageOf(functionName, url) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:'))
    return `node:${url.slice(5).split('/')[0]}${url.includes('internal') ? ' (internal)' : ''}`;
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = path.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  return path.startsWith(ROOT) ? relative(ROOT, path).split('/').slice(0, 2).join('/') : path;
}

for (const target of positionals) {
  const files = statSync(target).isDirectory()
    ? readdirSync(target)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => join(target, f))
    : [target];
  const dir = statSync(target).isDirectory() ? target : join(target, '..');
  const windows = values.load === undefined ? undefined : loadWindows(dir, values.load);
  for (const file of files) summarize(file, processNames(dir), windows);
}
