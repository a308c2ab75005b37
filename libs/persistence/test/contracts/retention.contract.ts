import { RetentionSweep, type Stores } from '@platform/domain';
import type { Contract } from '../support/contract';
import { aDeviceAuthorization } from './device-authorization-store.contract';
import {
  aRefreshToken,
  aRevocation,
  aSession,
  aTokenEvent,
  anAuthorizationCode,
  at,
  T0,
  uniqueId,
} from '../support/factories';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** What the retention sweep deletes, store by store, and the sweep's batches over them. */
export const retentionContract: Contract = (context) => {
  const stores = (): Stores => context().stores;

  describe('authorization codes', () => {
    it('deletes the codes expired at or before the instant, keeps the later ones', async () => {
      const gone = [anAuthorizationCode({ expiresAt: at(-1) }), anAuthorizationCode({ expiresAt: T0 })];
      const kept = anAuthorizationCode({ expiresAt: at(1) });
      for (const code of [...gone, kept]) await stores().authorizationCodes.insertAuthorizationCode(code);

      await expect(stores().authorizationCodes.pruneAuthorizationCodes(T0, 10)).resolves.toBe(2);

      for (const code of gone)
        await expect(
          stores().authorizationCodes.consumeAuthorizationCode(code.codeHash, T0),
        ).resolves.toBeNull();
      await expect(stores().authorizationCodes.consumeAuthorizationCode(kept.codeHash, T0)).resolves.toEqual(
        kept,
      );
    });

    it('deletes at most limit codes at a time', async () => {
      for (let i = 0; i < 3; i++)
        await stores().authorizationCodes.insertAuthorizationCode(anAuthorizationCode({ expiresAt: at(-i) }));

      await expect(stores().authorizationCodes.pruneAuthorizationCodes(T0, 2)).resolves.toBe(2);
      await expect(stores().authorizationCodes.pruneAuthorizationCodes(T0, 2)).resolves.toBe(1);
    });
  });

  describe('sessions', () => {
    it('deletes the sessions expired at or before the instant, ended or not, keeps the later ones', async () => {
      const gone = [aSession({ expiresAt: at(-1), endedAt: at(-5) }), aSession({ expiresAt: T0 })];
      const kept = aSession({ expiresAt: at(1), endedAt: at(-5) });
      for (const session of [...gone, kept]) await stores().sessions.insertSession(session);

      await expect(stores().sessions.pruneSessions(T0, 10)).resolves.toBe(2);

      for (const session of gone)
        await expect(stores().sessions.findSession(session.sessionHash)).resolves.toBeNull();
      await expect(stores().sessions.findSession(kept.sessionHash)).resolves.toEqual(kept);
    });

    it('deletes at most limit sessions at a time', async () => {
      for (let i = 0; i < 3; i++) await stores().sessions.insertSession(aSession({ expiresAt: at(-i) }));

      await expect(stores().sessions.pruneSessions(T0, 2)).resolves.toBe(2);
      await expect(stores().sessions.pruneSessions(T0, 2)).resolves.toBe(1);
    });
  });

  describe('refresh tokens', () => {
    it('deletes a family once every token of it expired, rotated and revoked ones included', async () => {
      const grantId = 'grant-ended';
      const family = [
        aRefreshToken({ grantId, expiresAt: at(-2), rotatedAt: at(-3) }),
        aRefreshToken({ grantId, expiresAt: T0, revokedAt: at(-1) }),
      ];
      for (const token of family) await stores().refreshTokens.insertRefreshToken(token);

      await expect(stores().refreshTokens.pruneRefreshTokens(T0, 10)).resolves.toBe(2);

      for (const token of family)
        await expect(stores().refreshTokens.findRefreshToken(token.tokenHash)).resolves.toBeNull();
    });

    it('keeps the expired rotated tokens of a family that lives, so their reuse is still recognised', async () => {
      const grantId = 'grant-live';
      const rotated = aRefreshToken({ grantId, expiresAt: at(-DAY), rotatedAt: at(-2 * DAY) });
      const newest = aRefreshToken({ grantId, expiresAt: at(1) });
      for (const token of [rotated, newest]) await stores().refreshTokens.insertRefreshToken(token);

      await expect(stores().refreshTokens.pruneRefreshTokens(T0, 10)).resolves.toBe(0);

      await expect(stores().refreshTokens.findRefreshToken(rotated.tokenHash)).resolves.toEqual(rotated);
      await expect(stores().refreshTokens.findRefreshToken(newest.tokenHash)).resolves.toEqual(newest);
    });

    it('deletes at most limit tokens at a time', async () => {
      for (let i = 0; i < 3; i++)
        await stores().refreshTokens.insertRefreshToken(
          aRefreshToken({ grantId: 'grant-old', expiresAt: at(-i) }),
        );

      await expect(stores().refreshTokens.pruneRefreshTokens(T0, 2)).resolves.toBe(2);
      await expect(stores().refreshTokens.pruneRefreshTokens(T0, 2)).resolves.toBe(1);
    });
  });

  describe('token events', () => {
    it('deletes the events that occurred before the instant, keeps the others', async () => {
      await stores().tokenEvents.appendTokenEvents([
        aTokenEvent({ occurredAt: at(-2) }),
        aTokenEvent({ occurredAt: at(-1) }),
        aTokenEvent({ occurredAt: T0 }),
      ]);

      await expect(stores().tokenEvents.pruneTokenEvents(T0, 10)).resolves.toBe(2);

      const left = await stores().tokenEvents.listTokenEvents({ limit: 10 });
      expect(left.map((event) => event.occurredAt)).toEqual([T0]);
    });

    it('looks at the oldest limit events only', async () => {
      await stores().tokenEvents.appendTokenEvents([
        aTokenEvent({ occurredAt: at(-3) }),
        aTokenEvent({ occurredAt: at(-2) }),
        aTokenEvent({ occurredAt: at(-1) }),
      ]);

      await expect(stores().tokenEvents.pruneTokenEvents(T0, 2)).resolves.toBe(2);

      const left = await stores().tokenEvents.listTokenEvents({ limit: 10 });
      expect(left.map((event) => event.occurredAt)).toEqual([at(-1)]);
    });
  });

  describe('the sweep', () => {
    const policy = { graceSeconds: 60 * 60, tokenEventDays: 30 };

    it('deletes, in batches until one comes back short, what is past its retention, and keeps the rest', async () => {
      const now = T0;
      const sweep = new RetentionSweep(stores(), { now: () => now }, policy, 2);
      const pastGrace = at(-61 * MINUTE);
      const withinGrace = at(-59 * MINUTE);
      for (let i = 0; i < 5; i++) {
        await stores().authorizationCodes.insertAuthorizationCode(
          anAuthorizationCode({ expiresAt: pastGrace }),
        );
        await stores().sessions.insertSession(aSession({ expiresAt: pastGrace }));
        await stores().refreshTokens.insertRefreshToken(aRefreshToken({ expiresAt: pastGrace }));
        await stores().deviceAuthorizations.insertDeviceAuthorization(
          aDeviceAuthorization({ expiresAt: pastGrace }),
        );
      }
      await stores().tokenEvents.appendTokenEvents(
        Array.from({ length: 5 }, () => aTokenEvent({ occurredAt: at(-31 * DAY) })),
      );
      // Six logout tokens delivered, five of them past the grace.
      const sids = Array.from({ length: 6 }, () => uniqueId('sid'));
      const logouts = stores().backchannelLogouts;
      await logouts.insertBackchannelLogouts(
        sids.map((sid) => ({ clientId: 'rp', subject: 'user', sid, tenant: null })),
        pastGrace,
      );
      const delivered = await logouts.claimBackchannelLogouts({ now: pastGrace, leaseUntil: now, limit: 10 });
      await logouts.recordBackchannelLogoutAttempts(
        delivered.map((logout) => ({
          id: logout.id,
          status: 204,
          error: null,
          state: 'succeeded' as const,
          nextAttemptAt: logout.sid === sids[0] ? withinGrace : pastGrace,
        })),
      );
      await stores().revocations.addRevocations([aRevocation({ expiresAt: at(-1) })], at(-DAY));
      const code = anAuthorizationCode({ expiresAt: withinGrace });
      const session = aSession({ expiresAt: withinGrace });
      const token = aRefreshToken({ expiresAt: withinGrace });
      const [revocation] = await stores().revocations.addRevocations(
        [aRevocation({ expiresAt: at(1) })],
        at(-DAY),
      );
      await stores().authorizationCodes.insertAuthorizationCode(code);
      await stores().sessions.insertSession(session);
      await stores().refreshTokens.insertRefreshToken(token);
      const device = aDeviceAuthorization({ expiresAt: withinGrace });
      await stores().deviceAuthorizations.insertDeviceAuthorization(device);
      await stores().tokenEvents.appendTokenEvents([aTokenEvent({ occurredAt: at(-29 * DAY) })]);
      // Six used assertions, five expired: the one still valid stays remembered.
      const used = Array.from({ length: 6 }, (_, n) => ({
        key: uniqueId('assertion'),
        expiresAt: n === 0 ? at(60) : at(-60),
      }));
      await stores().assertionReplays.rememberAssertions(used);
      // Six SAML requests never answered, five expired.
      const requests = Array.from({ length: 6 }, (_, n) => ({
        id: uniqueId('_request'),
        tenant: 'acme',
        createdAt: at(-600),
        expiresAt: n === 0 ? at(60) : at(-60),
      }));
      for (const request of requests) await stores().samlRequests.insertSamlRequest(request);
      // Six quota consumptions, five of windows that ended more than a day ago.
      for (let n = 0; n < 6; n++) {
        await stores().quotas.addConsumption({
          tenant: 'acme',
          meter: 'calls',
          periodStart: at(-3 * DAY),
          periodEnd: n === 0 ? at(-DAY + 60_000) : at(-DAY - 60_000 - n),
          idempotencyKey: `k${n}`,
          units: 1,
          usedAfter: n + 1,
          recordedAt: at(-3 * DAY),
        });
      }

      await expect(sweep.run()).resolves.toEqual({
        revocations: 1,
        authorization_codes: 5,
        sessions: 5,
        refresh_tokens: 5,
        token_events: 5,
        device_authorizations: 5,
        backchannel_logouts: 5,
        assertion_uses: 5,
        saml_requests: 5,
        quota_consumptions: 5,
      });

      await expect(stores().authorizationCodes.consumeAuthorizationCode(code.codeHash, now)).resolves.toEqual(
        code,
      );
      await expect(stores().sessions.findSession(session.sessionHash)).resolves.toEqual(session);
      await expect(stores().refreshTokens.findRefreshToken(token.tokenHash)).resolves.toEqual(token);
      await expect(stores().tokenEvents.listTokenEvents({ limit: 10 })).resolves.toHaveLength(1);
      await expect(
        stores().deviceAuthorizations.findDeviceAuthorization(device.deviceCodeHash),
      ).resolves.toEqual(device);
      await expect(stores().revocations.listActiveRevocations(now)).resolves.toEqual([revocation]);
      await expect(logouts.listBackchannelLogoutsOfSession(sids[0])).resolves.toHaveLength(1);
      await expect(stores().assertionReplays.rememberAssertions([used[0]])).resolves.toEqual([]);
      await expect(sweep.run()).resolves.toEqual({
        revocations: 0,
        authorization_codes: 0,
        sessions: 0,
        refresh_tokens: 0,
        token_events: 0,
        device_authorizations: 0,
        backchannel_logouts: 0,
        assertion_uses: 0,
        saml_requests: 0,
        quota_consumptions: 0,
      });
      await expect(stores().samlRequests.consumeSamlRequest(requests[0].id, 'acme', now)).resolves.toBe(true);
    });

    it('keeps every token event when their retention is 0', async () => {
      await stores().tokenEvents.appendTokenEvents([aTokenEvent({ occurredAt: at(-400 * DAY) })]);

      const sweep = new RetentionSweep(stores(), { now: () => T0 }, { ...policy, tokenEventDays: 0 });

      await expect(sweep.run()).resolves.toMatchObject({ token_events: 0 });
      await expect(stores().tokenEvents.listTokenEvents({ limit: 10 })).resolves.toHaveLength(1);
    });
  });
};
