// The storage contract suite's Postgres helpers serve the e2e specs too: one template, one rule.
import { postgresSuiteEnabled } from '../../libs/persistence/test/support/postgres';

export { postgresSuiteEnabled };

export { createScratchDatabase, type ScratchDatabase } from '../../libs/persistence/test/support/postgres';

/** `describe` that runs on Postgres when it answers, and must under CI=true. */
export function describeOnPostgres(name: string, body: () => void): void {
  if (postgresSuiteEnabled(`"${name}" on Postgres`)) describe(`${name} (Postgres)`, body);
}
