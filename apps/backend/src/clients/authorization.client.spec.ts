import { Logger } from '@nestjs/common';
import { fakeControlPlane, type FakeControlPlane, upstream } from '../testing/fakes';
import { AuthorizationClient } from './authorization.client';
import type { ControlPlaneClient } from './control-plane.client';

beforeAll(() => Logger.overrideLogger(false));
afterAll(() => Logger.overrideLogger(['log', 'error', 'warn']));

const PARAMETERS = { client_id: 'dashboard', redirect_uri: 'https://d.example/cb', state: 'xyz' };

describe(AuthorizationClient.name, () => {
  let controlPlane: FakeControlPlane;
  let client: AuthorizationClient;

  beforeEach(() => {
    controlPlane = fakeControlPlane();
    client = new AuthorizationClient(controlPlane as unknown as ControlPlaneClient);
  });

  describe('check', () => {
    it('reads an accepted request with its scope descriptions', async () => {
      controlPlane.request.mockResolvedValue(
        upstream(200, {
          client_id: 'dashboard',
          client_name: 'Dashboard',
          redirect_uri: 'https://d.example/cb',
          scopes: [{ name: 'jobs.read', description: 'List and view job executions' }],
        }),
      );
      await expect(client.check(PARAMETERS)).resolves.toEqual({
        ok: true,
        request: {
          clientId: 'dashboard',
          clientName: 'Dashboard',
          redirectUri: 'https://d.example/cb',
          scopes: [{ name: 'jobs.read', description: 'List and view job executions' }],
        },
      });
      expect(controlPlane.request).toHaveBeenCalledWith(
        expect.objectContaining({
          method: 'POST',
          path: '/internal/v1/authorize/check',
          body: JSON.stringify(PARAMETERS),
          contentType: 'application/json',
        }),
      );
    });

    it('reads a redirectable refusal', async () => {
      controlPlane.request.mockResolvedValue(
        upstream(400, {
          error: 'invalid_scope',
          error_description: 'admin.* not declared',
          redirectable: true,
        }),
      );
      await expect(client.check(PARAMETERS)).resolves.toEqual({
        ok: false,
        refusal: { error: 'invalid_scope', errorDescription: 'admin.* not declared', redirectable: true },
      });
    });

    it('never takes a refusal for redirectable unless the control plane says so', async () => {
      controlPlane.request.mockResolvedValue(
        upstream(400, { error: 'invalid_request', redirectable: 'yes' }),
      );
      await expect(client.check(PARAMETERS)).resolves.toMatchObject({
        refusal: { redirectable: false },
      });
    });

    it('treats a 500 as unavailable', async () => {
      controlPlane.request.mockResolvedValue(upstream(500, {}));
      await expect(client.check(PARAMETERS)).rejects.toMatchObject({ code: 'unavailable' });
    });
  });

  describe('decide', () => {
    it('posts the request, the session and the decision, and reads where to go', async () => {
      controlPlane.request.mockResolvedValue(
        upstream(200, { redirect_to: 'https://d.example/cb?code=c&state=xyz' }),
      );
      await expect(client.decide(PARAMETERS, 'session-1', true)).resolves.toEqual({
        outcome: 'redirect',
        redirectTo: 'https://d.example/cb?code=c&state=xyz',
      });
      const call = controlPlane.request.mock.calls[0][0];
      expect(call).toMatchObject({ path: '/internal/v1/authorize/decision', answersUnauthorized: true });
      expect(JSON.parse(call.body ?? '')).toEqual({ ...PARAMETERS, session: 'session-1', approved: true });
    });

    it('reads a 401 as the session having expired', async () => {
      controlPlane.request.mockResolvedValue(
        upstream(401, {}, { 'content-type': 'application/problem+json' }),
      );
      await expect(client.decide(PARAMETERS, 's', false)).resolves.toEqual({
        outcome: 'session-expired',
      });
    });
  });
});
