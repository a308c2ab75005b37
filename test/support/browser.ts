import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { describeWithPrerequisite } from './prerequisite';

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

/** `describe` for suites that drive a real browser (test/support/prerequisite.ts says what happens without one). */
export function describeInBrowser(name: string, suite: () => void): void {
  describeWithPrerequisite(
    name,
    {
      present: existsSync(CHROMIUM_PATH),
      needs: `Chromium at ${CHROMIUM_PATH}`,
      install: 'apt-get install chromium, or set CHROMIUM_PATH',
      ciScript: 'scripts/ci-browser.sh',
      kind: 'BROWSER',
    },
    suite,
  );
}

/** A headless Chromium with a fresh, throw-away profile (playwright-core creates it per launch). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: LAUNCH_ARGS });
}
