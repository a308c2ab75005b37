import { Logger } from '@nestjs/common';
import { fakeControlPlane, type FakeControlPlane, upstream } from '../testing/fakes';
import type { ControlPlaneClient } from './control-plane.client';
import { SessionsClient } from './sessions.client';

beforeAll(() => Logger.overrideLogger(false));
afterAll(() => Logger.overrideLogger(['log', 'error', 'warn']));

const USER = {
  id: 'u1',
  email: 'alice@acme.example',
  name: 'Alice',
  tenant: 'acme',
  roles: ['tenant_admin'],
};

describe(SessionsClient.name, () => {
  let controlPlane: FakeControlPlane;
  let sessions: SessionsClient;

  beforeEach(() => {
    controlPlane = fakeControlPlane();
    sessions = new SessionsClient(controlPlane as unknown as ControlPlaneClient);
  });

  describe('create', () => {
    const identity = {
      idToken: 'header.claims.signature',
      userInfo: { sub: 'alice', email: 'alice@acme.example' },
    };

    it('posts the ID token as signed, for the control plane to verify, and reads the session, its expiry (Unix seconds) and the user', async () => {
      controlPlane.request.mockResolvedValue(
        upstream(201, { session: 'opaque', expires_at: 2_000_000_000, user: USER }),
      );
      await expect(sessions.create(identity)).resolves.toEqual({
        session: 'opaque',
        expiresAt: new Date(2_000_000_000_000),
        user: USER,
      });
      expect(controlPlane.request).toHaveBeenCalledWith({
        method: 'POST',
        path: '/internal/v1/sessions',
        contentType: 'application/json',
        body: JSON.stringify({ id_token: identity.idToken, userinfo: identity.userInfo }),
      });
    });

    it('also reads an ISO 8601 expiry', async () => {
      controlPlane.request.mockResolvedValue(
        upstream(201, { session: 'opaque', expires_at: '2033-05-18T03:33:20.000Z', user: USER }),
      );
      await expect(sessions.create(identity)).resolves.toMatchObject({
        expiresAt: new Date('2033-05-18T03:33:20.000Z'),
      });
    });

    it('refuses a deactivated user as forbidden, not as the control plane failing', async () => {
      controlPlane.request.mockResolvedValue(
        upstream(403, { status: 403, detail: 'the account is deactivated' }),
      );
      await expect(sessions.create(identity)).rejects.toMatchObject({ code: 'forbidden' });
    });

    it('treats an answer outside the contract as the control plane being unavailable', async () => {
      controlPlane.request.mockResolvedValue(upstream(201, { session: '', user: USER }));
      await expect(sessions.create(identity)).rejects.toMatchObject({ code: 'unavailable' });
      controlPlane.request.mockResolvedValue(upstream(500, { title: 'Internal Server Error' }));
      await expect(sessions.create(identity)).rejects.toMatchObject({ code: 'unavailable' });
    });
  });

  describe('resolve', () => {
    it('answers the user of a live session and when they signed in', async () => {
      const authTime = '2026-11-28T09:00:00.000Z';
      controlPlane.request.mockResolvedValue(upstream(200, { user: USER, auth_time: authTime }));
      await expect(sessions.resolve('s')).resolves.toEqual({ user: USER, authTime: new Date(authTime) });
      expect(controlPlane.request).toHaveBeenCalledWith(
        expect.objectContaining({ path: '/internal/v1/sessions/resolve', answersUnauthorized: true }),
      );
    });

    it('answers undefined for an unknown or expired session (401)', async () => {
      controlPlane.request.mockResolvedValue(
        upstream(401, { status: 401 }, { 'content-type': 'application/problem+json' }),
      );
      await expect(sessions.resolve('s')).resolves.toBeUndefined();
    });
  });

  describe('end', () => {
    it('ends the session', async () => {
      controlPlane.request.mockResolvedValue(upstream(204));
      await expect(sessions.end('s')).resolves.toBeUndefined();
      expect(controlPlane.request).toHaveBeenCalledWith(
        expect.objectContaining({ path: '/internal/v1/sessions/end', body: '{"session":"s"}' }),
      );
    });
  });
});
