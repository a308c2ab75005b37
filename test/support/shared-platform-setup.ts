import { startSharedPlatform } from './platform';

/** The e2e project's globalSetup: one platform for the files that use `sharedPlatform()`. */
export default async function setup(): Promise<void> {
  (globalThis as { stopSharedPlatform?: () => Promise<void> }).stopSharedPlatform =
    await startSharedPlatform();
}
