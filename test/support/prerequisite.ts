/** A tool from outside npm that a suite drives (Chromium, Python's Authlib), and how CI gets it. */
export interface Prerequisite {
  /** Whether the tool is there. */
  present: boolean;
  /** What the suite needs, as the messages name it: "Chromium at /usr/bin/chromium". */
  needs: string;
  /** How a developer installs it. */
  install: string;
  /** The script `.ci/run` calls to install it. */
  ciScript: string;
  /** The kind of suite, in the skip banner: "BROWSER". */
  kind: string;
}

/**
 * `describe` for suites that need a prerequisite. Without it: under CI=true the suite fails (it
 * must run there); elsewhere it says so loudly and its tests are registered as skipped, never
 * counted as passed (a jest file with no test at all would fail instead).
 */
export function describeWithPrerequisite(name: string, prerequisite: Prerequisite, suite: () => void): void {
  const { present, needs, install, ciScript, kind } = prerequisite;
  if (present) {
    describe(name, suite);
    return;
  }
  if (process.env.CI === 'true') {
    describe(name, () => {
      it(`has ${needs}`, () => {
        throw new Error(`${needs} is missing; under CI=true this suite must run (${ciScript} installs it)`);
      });
    });
    return;
  }
  console.warn(
    `\n*** ${kind} TESTS SKIPPED: "${name}" needs ${needs} ***\n` +
      `*** Install it (${install}); these tests did NOT run. ***\n`,
  );
  describe.skip(name, suite);
}
