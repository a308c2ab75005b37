import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GRPC_FLOOR_BARS } from './grpc-floor.mjs';

/** Short names of the rows a ratio can be taken against. */
const BASELINES = {
  'issuance-peer': 'node-oidc-provider',
  'issuance-client-secret': 'client_secret_post',
  'introspection-peer': 'node-oidc-provider',
  unprotected: 'unprotected route',
  protected: 'Bearer, same token',
  'rs256-sign': 'RS256 sign, 1 core',
  'rs256-verify': 'RS256 verify, 1 core',
  'webhook-append': 'records written',
  'webhook-append-10': 'records written',
  'many-unprotected': 'unprotected route',
  'many-jose': 'local jose, no revocation',
  'issuance-untraced': 'tracing off',
  'issuance-limits-off': 'rate limits off',
  'exchange-issuance': 'client_credentials issuance',
  'saml-rsa-verify': 'RSA-SHA256 verify alone',
  'issuance-saml-client-secret': 'client_credentials issuance',
  'jobs-pg-boss': 'pg-boss',
  'jobs-graphile-worker': 'graphile-worker',
  'grpc-floor': 'bare grpc-js echo',
};

/** The bars the issues set; `aim` is the stretch goal. A bar whose rows did not run is left out. */
const BARS = [
  {
    // Issue 15 moved it from 1x: two HTTP hops cannot beat one process on two shared cores.
    name: 'Issuance vs node-oidc-provider',
    row: 'issuance',
    against: 'issuance-peer',
    min: 0.75,
    aim: 1.0,
  },
  {
    // Issue 39: an exchange signs one token too.
    name: 'Token exchange vs client_credentials issuance',
    row: 'exchange',
    against: 'exchange-issuance',
    min: 0.8,
    aim: 1.0,
  },
  {
    // Issue 43: private_key_jwt skips argon2 (a signature check and a shared jti insert instead).
    name: 'Issuance with private_key_jwt vs client_secret',
    row: 'issuance-private-key-jwt',
    against: 'issuance-client-secret',
    min: 1.0,
    aim: 1.0,
  },
  {
    // Issue 45 raised the token paths' bars (issue 15's were 1.0x, 0.6x, 1.3x and 0.85x).
    name: 'Introspection vs node-oidc-provider',
    row: 'introspection',
    against: 'introspection-peer',
    min: 1.3,
    aim: 1.5,
  },
  {
    name: '100,000 tokens, uniform, vs unprotected',
    row: 'many-tokens',
    against: 'many-unprotected',
    min: 0.6,
    aim: 0.85,
  },
  {
    name: '100,000 tokens, uniform, vs local jose',
    row: 'many-tokens',
    against: 'many-jose',
    min: 1.0,
    aim: 2.0,
  },
  {
    name: '100,000 tokens, Zipf, vs unprotected',
    row: 'many-tokens-zipf',
    against: 'many-unprotected',
    min: 0.6,
    aim: 0.85,
  },
  {
    name: '100,000 tokens, Zipf, vs local jose',
    row: 'many-tokens-zipf',
    against: 'many-jose',
    min: 1.0,
    aim: 2.0,
  },
  { name: 'Backend RSS, 100,000 tokens uniform', row: 'many-tokens', process: 'backend', maxRssMiB: 300 },
  { name: 'Backend RSS, 100,000 tokens Zipf', row: 'many-tokens-zipf', process: 'backend', maxRssMiB: 300 },
  {
    name: 'Protected vs unprotected route',
    row: 'protected',
    against: 'unprotected',
    min: 0.75,
    aim: 0.85,
  },
  {
    // Issue 43: a proof per request (one ES256 verification, the replay cache) beside Bearer.
    name: 'Protected with DPoP vs Bearer',
    row: 'protected-dpop',
    against: 'protected',
    min: 0.6,
    aim: 0.8,
  },
  { name: 'Revocation at a second sidecar, p99', row: 'revocation', maxP99Ms: 1000 },
  { name: "Revocation at a second backend's route, p99", row: 'revocation-backend', maxP99Ms: 1000 },
  // Issue 45: webhooks keep up with the audit log, one endpoint or ten (in steady state).
  {
    name: 'Webhook deliveries vs records written, 1 endpoint',
    row: 'webhook-deliveries',
    against: 'webhook-append',
    min: 1.0,
    aim: 1.0,
  },
  {
    name: 'Webhook deliveries per endpoint vs records written, 10 endpoints',
    row: 'webhook-deliveries-10',
    against: 'webhook-append-10',
    min: 1.0,
    aim: 1.0,
  },
  { name: 'Webhook delivery p99, 1 endpoint', row: 'webhook-deliveries', maxP99Ms: 1000 },
  { name: 'Webhook delivery p99, 10 endpoints', row: 'webhook-deliveries-10', maxP99Ms: 1000 },
  // Issue 45: the platform's jobs on the peers' database, and a job's start when workers wait.
  {
    name: 'Jobs/s on Postgres vs pg-boss',
    row: 'jobs-postgres',
    against: 'jobs-pg-boss',
    min: 0.5,
    aim: 1.0,
  },
  // The same, when the main platform itself runs on Postgres (DATABASE_URL).
  { name: 'Jobs/s vs pg-boss (on Postgres)', row: 'jobs', against: 'jobs-pg-boss', min: 0.5, aim: 1.0 },
  { name: 'Job submission to start, idle workers, p50', row: 'jobs-idle-start', maxP50Ms: 50 },
  {
    name: 'Job submission to start on Postgres, idle workers, p50',
    row: 'jobs-idle-start-postgres',
    maxP50Ms: 50,
  },
  {
    name: 'Issuance CPU per token vs the two-hop floor',
    row: 'issuance',
    against: 'issuance-floor',
    max: 1.15,
    aim: 1.1,
  },
  {
    name: 'Issuance with the backend’s rate limits (default) vs off',
    row: 'issuance-limits-memory',
    against: 'issuance-limits-off',
    min: 0.9,
    aim: 0.95,
  },
  {
    name: 'Issuance p99 during a wrong-secret flood vs without',
    row: 'issuance-argon2-flood',
    against: 'issuance-argon2-calm',
    max: 2.0,
    aim: 1.5,
  },
  {
    name: 'Issuance with tracing on vs off',
    row: 'issuance-traced',
    against: 'issuance-untraced',
    min: 0.9,
    aim: 0.95,
  },
  ...GRPC_FLOOR_BARS,
];

/** Resolves the ratios of every row and judges the bars. */
export function buildReport({ rows, processes, machine, settings, conditions, startedAt, finishedAt }) {
  const byKey = new Map(rows.map((row) => [row.key, row]));
  const results = rows.map((row) => ({
    ...row,
    rps: row.rps === null ? null : Math.round(row.rps),
    ratios: (row.ratios ?? [])
      .filter(({ against }) => byKey.has(against))
      .map(({ against, label, value }) => ({
        against,
        // A row without a short name (one measured on another database): its own label.
        label: label ?? BASELINES[against] ?? byKey.get(against).label,
        value: round2(value ?? row.rps / byKey.get(against).rps),
      })),
  }));
  const bars = [];
  for (const bar of BARS) {
    const row = results.find((r) => r.key === bar.row);
    if (!row) continue;
    if (bar.maxRssMiB !== undefined) {
      const rss = row.rss?.[bar.process];
      if (rss === undefined) continue;
      bars.push({
        name: bar.name,
        target: `< ${bar.maxRssMiB} MiB`,
        value: `${rss} MiB`,
        met: rss < bar.maxRssMiB,
      });
      continue;
    }
    if (bar.maxP50Ms !== undefined) {
      bars.push({
        name: bar.name,
        target: `p50 < ${bar.maxP50Ms} ms`,
        value: `${row.p50} ms`,
        met: row.errors === 0 && row.p50 < bar.maxP50Ms,
      });
      continue;
    }
    if (bar.maxP99Ms !== undefined) {
      bars.push({
        name: bar.name,
        target: `< ${bar.maxP99Ms} ms`,
        value: `${row.p99} ms`,
        met: row.errors === 0 && row.p99 < bar.maxP99Ms,
      });
      continue;
    }
    const ratio = row.ratios.find((r) => r.against === bar.against);
    if (!ratio) continue;
    if (bar.max !== undefined) {
      bars.push({
        name: bar.name,
        target: `<= ${bar.max}x (aim ${bar.aim}x)`,
        value: `${ratio.value}x`,
        met: ratio.value <= bar.max,
        aimMet: ratio.value <= bar.aim,
      });
      continue;
    }
    bars.push({
      name: bar.name,
      target: `>= ${bar.min}x (aim ${bar.aim}x)`,
      value: `${ratio.value}x`,
      met: ratio.value >= bar.min,
      aimMet: ratio.value >= bar.aim,
    });
  }
  const errorFree = results.every((row) => !row.errors);
  return {
    schema: 1,
    startedAt,
    finishedAt,
    machine,
    conditions,
    settings,
    results,
    bars,
    errorFree,
    processes,
  };
}

const round2 = (value) => Math.round(value * 100) / 100;
const int = (value) =>
  value === null || value === undefined || Number.isNaN(value) ? '-' : value.toLocaleString('en-US');
const ms = (value) => (value === null || value === undefined || Number.isNaN(value) ? '-' : String(value));

function throughput(row) {
  if (row.unit === 'revocations') return `${row.count} revocations`;
  // Timed one at a time: how many, not how fast.
  if (row.rps === null && row.count !== undefined) return `${int(row.count)} ${row.unit}`;
  return `${int(row.rps)} ${row.unit ?? 'req/s'}`;
}

function table(headers, lines) {
  const widths = headers.map((h, i) => Math.max(h.length, ...lines.map((line) => String(line[i]).length)));
  const render = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  return [render(headers), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...lines.map(render)].join(
    '\n',
  );
}

/** The results table (Markdown, also what the console shows). */
export function resultsTable(report) {
  const barsOf = (key) =>
    BARS.filter((bar) => bar.row === key)
      .map((bar) => report.bars.find((judged) => judged.name === bar.name))
      .filter(Boolean);
  return table(
    ['Scenario', 'Conns', 'Throughput', 'p50 ms', 'p99 ms', 'Errors', 'Compared with', 'Bar'],
    report.results.map((row) => {
      return [
        row.label,
        row.connections ?? '-',
        throughput(row),
        ms(row.p50),
        ms(row.p99),
        row.errors ?? '-',
        row.ratios.map((r) => `${r.value}x ${r.label}`).join('; ') || '-',
        barsOf(row.key)
          .map((bar) => `${bar.target}: ${bar.met ? 'met' : 'NOT met'}${bar.aimMet ? ', aim met' : ''}`)
          .join('; '),
      ];
    }),
  );
}

/**
 * CPU of each process during each load: percent of one core, CPU microseconds per request (the
 * cost of one request in that process, which other work on the machine distorts less than
 * throughput) and its peak RSS meanwhile. `other` is what processes the harness did not start
 * used meanwhile.
 */
export function cpuTable(report) {
  const loads = report.results.filter((row) => row.cpu);
  const names = [...new Set(loads.flatMap((row) => Object.keys(row.cpu)))].filter((name) =>
    loads.some((row) => row.cpu[name] >= 1),
  );
  return table(
    ['Load', ...names],
    loads.map((row) => [
      row.label,
      ...names.map((name) => {
        const percent = row.cpu[name];
        if (percent === undefined || Number.isNaN(percent) || percent < 1) return '-';
        if (name === 'other') return `${percent}%`;
        const micros = row.rps > 0 ? Math.round((percent / 100) * (1e6 / row.rps)) : NaN;
        const memory = row.rss?.[name] === undefined ? '' : `, ${row.rss[name]} MiB`;
        return `${percent}% (${Number.isNaN(micros) ? '-' : micros} µs${memory})`;
      }),
    ]),
  );
}

export function processesTable(report) {
  return table(
    ['Process', 'Start to healthy ms', 'RSS idle MiB', 'RSS peak under load MiB'],
    report.processes.map((p) => [p.process, ms(p.healthyMs), ms(p.idleMiB), ms(p.loadMiB)]),
  );
}

export function machineLine({ machine }) {
  return `${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB RAM, ${machine.os}, Node ${machine.node}`;
}

function settingsLine({ settings }) {
  return (
    `${settings.quick ? 'quick run' : 'full run'}: ${settings.warmup} s warm-up + ${settings.duration} s per load ` +
    `(loads compared with each other measured in turns), ` +
    `${settings.connections} connections, ${settings.revocations} revocations, database ${settings.database}` +
    (settings.otherDatabases?.length ? ` (also ${settings.otherDatabases.join(', ')}, rows suffixed)` : '')
  );
}

export function toMarkdown(report) {
  return `# Benchmark results

Run ${report.startedAt} (${settingsLine(report)}).

Machine: ${machineLine(report)}. Load average (1 min) when the run began: ${report.conditions.loadAverage}.

${resultsTable(report)}

CPU per process during each measured load, in percent of one core and (in brackets) CPU
microseconds per request and the process's peak RSS during that load; \`other\` is CPU used meanwhile by processes the benchmark did not start
(and hypervisor steal), which the figures suffer from:

${cpuTable(report)}

${processesTable(report)}

Bars: ${report.bars.map((b) => `${b.name} ${b.value} (${b.target}): ${b.met ? 'met' : 'NOT met'}`).join('; ')}.
Every request answered without error: ${report.errorFree ? 'yes' : 'NO'}.

Load generator: autocannon in the harness's own process on the same machine (it competes with
the servers for the cores). The peer is node-oidc-provider ${report.settings.peerVersion ?? ''} in one
process: client_credentials with client_secret_post, RS256 \`at+jwt\` access tokens; its client
secrets are compared in plain text, ours are argon2id hashes. node-oidc-provider does not store
or introspect its JWT access tokens, so its introspection figure is for its own opaque token.
Reproduce: \`npm run bench\` (\`npm run bench -- --quick\` for the short run); see
docs/performance.md.
`;
}

/** Writes `<dir>/<timestamp>.md|json` and `<dir>/latest.md|json`; answers the paths. */
export function writeResults(report, dir) {
  mkdirSync(dir, { recursive: true });
  const stamp = report.startedAt.replace(/[:.]/g, '-');
  const markdown = toMarkdown(report);
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const paths = [];
  for (const name of [stamp, 'latest']) {
    writeFileSync(join(dir, `${name}.md`), markdown);
    writeFileSync(join(dir, `${name}.json`), json);
    paths.push(join(dir, `${name}.md`), join(dir, `${name}.json`));
  }
  return paths;
}

export function writeJson(report, file) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}
