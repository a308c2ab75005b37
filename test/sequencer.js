/**
 * The order the suites start in when jest has no timings of its own (a fresh clone, as in CI).
 * Jest then falls back to file size, which started the longest suite (the bench smoke, a small
 * file running for minutes) among the last, and one worker ran it alone at the end. Here the
 * suites known to run longest start first, then the other e2e files, then medium, then unit: the
 * short ones fill the tail. Once jest has recorded timings (a second local run), its own order,
 * longest first, is used.
 */
const Sequencer = require('@jest/test-sequencer').default;

/** Paths (from the repository root) of the suites that take a minute or more of one worker. */
const LONGEST = [
  'test/e2e/bench/bench-smoke.e2e-spec.ts',
  'test/e2e/fuzz/http-fuzz.e2e-spec.ts',
  'test/e2e/fuzz/grpc-fuzz.e2e-spec.ts',
  'test/e2e/authority/isolation-matrix.e2e-spec.ts',
  'test/e2e/cli/cli.e2e-spec.ts',
  'test/e2e/jobs/jobs-durability.e2e-spec.ts',
  'test/e2e/audit/audit-durability.e2e-spec.ts',
  'test/e2e/rate-limits/definition-durability.e2e-spec.ts',
];

const TIERS = ['e2e', 'medium', 'unit'];

class LongestFirstSequencer extends Sequencer {
  sort(tests) {
    const timed = tests.some((test) => this.time(test) != null);
    if (timed) return super.sort(tests);
    const rank = (test) => {
      const pinned = LONGEST.findIndex((path) => test.path.endsWith(path));
      if (pinned >= 0) return pinned;
      const tier = TIERS.indexOf(test.context.config.displayName?.name);
      return LONGEST.length + (tier < 0 ? TIERS.length : tier);
    };
    const bySize = super.sort([...tests]);
    return bySize
      .map((test, position) => ({ test, position, rank: rank(test) }))
      .sort((a, b) => a.rank - b.rank || a.position - b.position)
      .map(({ test }) => test);
  }
}

module.exports = LongestFirstSequencer;
