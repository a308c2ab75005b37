import type { TestPlatform } from './platform';
import { createScratchDatabase, postgresSuiteEnabled, type ScratchDatabase } from './postgres';

/** SQLite always, Postgres when its suite runs (and always under CI=true). */
export function durabilityDatabases(
  suite: string,
): Array<{ name: string; scratch?: () => Promise<ScratchDatabase> }> {
  return [
    { name: 'SQLite' },
    ...(postgresSuiteEnabled(`the ${suite} durability suite on Postgres`)
      ? [{ name: 'Postgres', scratch: createScratchDatabase }]
      : []),
  ];
}

const WRITES = 40;
const IN_FLIGHT = 4;
/** The control plane is killed once this many writes are acknowledged, the rest in flight or to come. */
export const KILL_AFTER = 12;

/**
 * Writes 0 to 39, four at a time, and kills the control plane (SIGKILL) once twelve are
 * acknowledged; answers each write's status (0: no answer at all), once the kill is done.
 */
export async function writeThroughKill(
  platform: TestPlatform,
  write: (i: number) => Promise<Response>,
): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let next = 0;
  let killed: Promise<void> | undefined;
  const writer = async () => {
    while (next < WRITES) {
      const i = next++;
      const status = await write(i).then(
        async (response) => (await response.arrayBuffer(), response.status),
        () => 0,
      );
      statuses.set(i, status);
      const acknowledged = [...statuses.values()].filter((s) => s === 200).length;
      if (acknowledged >= KILL_AFTER && killed === undefined) killed = platform.killProcess('control-plane');
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, writer));
  await killed;
  return statuses;
}
