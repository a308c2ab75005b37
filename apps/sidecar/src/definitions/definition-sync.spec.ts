import { Logger } from '@nestjs/common';
import { Readiness } from '../health/readiness';
import { eventually } from '../testing/eventually';
import { FakeControlPlane } from '../testing/fake-control-plane';
import { DEFINITION_POLL_MS, DefinitionSync } from './definition-sync';

describe(DefinitionSync.name, () => {
  let controlPlane: FakeControlPlane;
  let readiness: Readiness;
  let sync: DefinitionSync;

  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => {
    controlPlane = new FakeControlPlane();
    readiness = new Readiness();
    readiness.markLoaded('keys');
    readiness.markLoaded('denyList');
    sync = new DefinitionSync(controlPlane, readiness);
  });
  afterEach(() => sync.onApplicationShutdown());

  const rules = (rpu: number) => ({
    descriptors: [{ key: 'ip', rate_limit: { unit: 'second', requests_per_unit: rpu } }],
  });

  it('loads every definition before the sidecar is ready, the last version of each', async () => {
    controlPlane.publishDefinition({
      kind: 'rate_limits',
      tenant: 'acme',
      name: 'api',
      version: 1,
      document: rules(1),
    });
    controlPlane.publishDefinition({
      kind: 'rate_limits',
      tenant: 'acme',
      name: 'api',
      version: 2,
      document: rules(2),
    });
    expect(readiness.ready).toBe(false);

    sync.onApplicationBootstrap();
    await readiness.whenReady();

    expect(sync.find('rate_limits', 'acme', 'api')).toMatchObject({ version: 2, document: rules(2) });
    expect(sync.find('rate_limits', 'globex', 'api')).toBeUndefined();
  });

  it('follows changes and tombstones, and retries while the control plane is down', async () => {
    controlPlane.reachable = false;
    sync.onApplicationBootstrap();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sync.isLoaded).toBe(false);

    controlPlane.reachable = true;
    await readiness.whenReady();
    controlPlane.publishDefinition({
      kind: 'flags',
      tenant: 'acme',
      name: 'flags',
      version: 1,
      document: { flags: {} },
    });
    await eventually(() => expect(sync.find('flags', 'acme', 'flags')).toBeDefined());
    controlPlane.publishDefinition({
      kind: 'flags',
      tenant: 'acme',
      name: 'flags',
      version: 2,
      document: null,
    });
    await eventually(() => expect(sync.find('flags', 'acme', 'flags')).toBeUndefined());
  });

  it('applies a change the stream pushes at once, long before the next read of the feed', async () => {
    sync.onApplicationBootstrap();
    await readiness.whenReady();
    await eventually(() => expect(controlPlane.definitionStreamsOpenedAfter).toEqual([0]));
    const published = Date.now();
    controlPlane.publishDefinition({
      kind: 'rate_limits',
      tenant: 'acme',
      name: 'api',
      version: 1,
      document: rules(5),
    });
    await eventually(() => expect(sync.find('rate_limits', 'acme', 'api')).toBeDefined(), 500);
    expect(Date.now() - published).toBeLessThan(DEFINITION_POLL_MS);
  });

  it('opens the stream again from the last change it applied after the control plane refused it', async () => {
    controlPlane.publishDefinition({
      kind: 'flags',
      tenant: 'acme',
      name: 'flags',
      version: 1,
      document: { flags: {} },
    });
    controlPlane.streamingDefinitions = false;
    sync.onApplicationBootstrap();
    await readiness.whenReady();
    await eventually(() => expect(controlPlane.definitionStreamsOpenedAfter).toEqual([1]));
    controlPlane.streamingDefinitions = true;
    await eventually(() => expect(controlPlane.definitionStreamsOpenedAfter).toEqual([1, 1]));
    controlPlane.publishDefinition({
      kind: 'flags',
      tenant: 'acme',
      name: 'flags',
      version: 2,
      document: null,
    });
    await eventually(() => expect(sync.find('flags', 'acme', 'flags')).toBeUndefined(), 500);
  });
});
