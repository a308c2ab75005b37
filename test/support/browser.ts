import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium (scripts/ci-browser.sh installs it in CI), or CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * `describe` for suites that drive a real browser. Without Chromium: under CI=true the suite
 * fails (it must run there); elsewhere it says so loudly and its tests are registered as
 * skipped, never counted as passed (a jest file with no test at all would fail instead).
 */
export function describeInBrowser(name: string, suite: () => void): void {
  if (existsSync(CHROMIUM_PATH)) {
    describe(name, suite);
    return;
  }
  if (process.env.CI === 'true') {
    describe(name, () => {
      it('has Chromium to run in', () => {
        throw new Error(
          `Chromium not found at ${CHROMIUM_PATH}; under CI=true the browser suites must run (scripts/ci-browser.sh installs it)`,
        );
      });
    });
    return;
  }
  console.warn(
    `\n*** BROWSER TESTS SKIPPED: "${name}" needs Chromium at ${CHROMIUM_PATH} ***\n` +
      `*** Install it (apt-get install chromium) or set CHROMIUM_PATH; these tests did NOT run. ***\n`,
  );
  describe.skip(name, suite);
}

/** A headless Chromium with a fresh, throw-away profile (playwright-core creates it per launch). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: LAUNCH_ARGS });
}
