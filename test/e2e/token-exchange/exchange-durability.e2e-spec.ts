import type { AuditRecordPageDto } from '@platform/contract';
import { decodeJwt } from 'jose';
import { platformDatabases } from '../../support/databases';
import { KILL_AFTER, writeThroughKill } from '../../support/durability';
import {
  adminToken,
  basic,
  clientCredentialsToken,
  discover,
  postForm,
  registerApp,
  type RegisteredApp,
} from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';
import { ACCESS_TOKEN_TYPE, TOKEN_EXCHANGE } from './exchange-client';

const ORDERS = 'https://orders.exchange-durability.example';
const LEDGER = 'https://ledger.exchange-durability.example';

/**
 * Token exchanges racing a kill -9 of the control plane: every exchanged token it answered has
 * its `token.exchanged` audit record after the restart (the token and its record are written
 * together, before the answer); none answered 500.
 */
describe.each(platformDatabases('the token exchange durability suite'))(
  'token exchanges across a kill -9 of the control plane ($name)',
  (database) => {
    let platform: TestPlatform;
    let drop: (() => Promise<void>) | undefined;
    let admin: string;
    /** A service allowed to exchange the tokens it receives for ones for the ledger. */
    let orders: RegisteredApp;
    /** A token a caller obtained for orders: what orders exchanges. */
    let received: string;

    beforeAll(async () => {
      const created = await database.create();
      drop = created.drop;
      platform = await startPlatform(created.url ? { databaseUrl: created.url } : {});
      const as = await discover(platform);
      admin = await adminToken(as, platform);
      await registerApp(platform, admin, { client_id: 'durable-ledger', resource_uri: LEDGER });
      orders = await registerApp(platform, admin, {
        client_id: 'durable-orders',
        resource_uri: ORDERS,
        token_exchange_audiences: [LEDGER],
      });
      const caller = await registerApp(platform, admin, { client_id: 'durable-caller' });
      received = (
        await clientCredentialsToken(
          as,
          { clientId: caller.client_id, clientSecret: caller.client_secret! },
          { resource: ORDERS },
        )
      ).access_token;
    });
    afterAll(async () => {
      await platform?.stop();
      await drop?.();
    });

    /** The jti of each exchanged token answered, by write. */
    const answered = new Map<number, string>();
    const exchange = async (i: number) => {
      const response = await postForm(
        `${platform.baseUrl}/v1/oauth/token`,
        {
          grant_type: TOKEN_EXCHANGE,
          subject_token: received,
          subject_token_type: ACCESS_TOKEN_TYPE,
          audience: LEDGER,
        },
        { authorization: basic(orders.client_id, orders.client_secret!) },
      );
      if (response.status === 200) {
        const { access_token } = (await response.clone().json()) as { access_token: string };
        answered.set(i, decodeJwt(access_token).jti!);
      }
      return response;
    };
    const audited = async (jti: string) => {
      const query = new URLSearchParams({ action: 'token.exchanged', target: jti });
      const response = await fetch(`${platform.baseUrl}/api/v1/audit/records?${query}`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as AuditRecordPageDto).records;
    };

    it('keeps the audit record of every exchange it answered', async () => {
      const statuses = await writeThroughKill(platform, exchange);
      const all = [...statuses.values()];
      expect(all.filter((s) => s === 200).length).toBeGreaterThanOrEqual(KILL_AFTER);
      expect(all.filter((s) => s !== 200).length).toBeGreaterThan(0);
      // An exchange the control plane could not take is refused as unavailable, never a 500.
      for (const status of all) expect([200, 502, 503, 504]).toContain(status);
      expect(answered.size).toBe(all.filter((s) => s === 200).length);

      await platform.restartProcess('control-plane');

      for (const [i, jti] of answered) {
        const records = await audited(jti);
        expect({ i, records: records.length }).toEqual({ i, records: 1 });
        expect(records[0]).toMatchObject({
          actor: { kind: 'app', id: 'durable-orders' },
          attributes: expect.objectContaining({ actor: 'durable-orders', audience: LEDGER }),
        });
      }
    });
  },
);
