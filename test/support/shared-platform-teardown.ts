/** The e2e project's globalTeardown: stops what shared-platform-setup.ts started. */
export default async function teardown(): Promise<void> {
  await (globalThis as { stopSharedPlatform?: () => Promise<void> }).stopSharedPlatform?.();
}
