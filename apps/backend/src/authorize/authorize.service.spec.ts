import { DomainError } from '@platform/domain';
import { CsrfTokens } from '../browser/csrf';
import type { AuthorizationClient, AuthorizeParameters } from '../clients/authorization.client';
import type { SessionsClient } from '../clients/sessions.client';
import {
  acceptedRequest,
  type FakeAuthorizationClient,
  fakeAuthorizationClient,
  type FakeSessionsClient,
  fakeSessionsClient,
  userFactory,
} from '../testing/fakes';
import { readAuthorizationRequest } from './authorization-request';
import { AuthorizeService } from './authorize.service';

const PARAMETERS = {
  client_id: 'dashboard',
  redirect_uri: 'https://dashboard.example.com/callback',
  response_type: 'code',
  scope: 'jobs.read',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
  state: 'af0ifjsldkj',
};

const request = (parameters: Record<string, string> | string = PARAMETERS) =>
  readAuthorizationRequest(new URLSearchParams(parameters));

describe(AuthorizeService.name, () => {
  let authorization: FakeAuthorizationClient;
  let sessions: FakeSessionsClient;
  let csrf: CsrfTokens;
  let service: AuthorizeService;

  beforeEach(() => {
    authorization = fakeAuthorizationClient();
    sessions = fakeSessionsClient();
    csrf = new CsrfTokens(Buffer.alloc(32, 7));
    service = new AuthorizeService(
      authorization as unknown as AuthorizationClient,
      sessions as unknown as SessionsClient,
      csrf,
      { issuer: 'https://auth.example.test' },
    );
  });

  describe('begin', () => {
    it('shows an error page and never redirects when the client is unknown', async () => {
      authorization.check.mockResolvedValue({
        ok: false,
        refusal: { error: 'invalid_request', errorDescription: 'unknown client_id', redirectable: false },
      });
      const outcome = service.begin(request(), 'session-1');
      await expect(outcome).rejects.toBeInstanceOf(DomainError);
      await expect(outcome).rejects.toMatchObject({ code: 'validation_failed' });
      await expect(outcome).rejects.toThrow(/unknown client_id/);
      expect(sessions.resolve).not.toHaveBeenCalled();
    });

    it('redirects a redirectable refusal to the client with error, description and state', async () => {
      authorization.check.mockResolvedValue({
        ok: false,
        refusal: {
          error: 'invalid_request',
          errorDescription: 'code_challenge required',
          redirectable: true,
        },
      });
      const outcome = await service.begin(request(), undefined);
      expect(outcome.kind).toBe('redirect');
      const location = new URL((outcome as { location: string }).location);
      expect(location.origin + location.pathname).toBe('https://dashboard.example.com/callback');
      expect(Object.fromEntries(location.searchParams)).toEqual({
        error: 'invalid_request',
        error_description: 'code_challenge required',
        state: 'af0ifjsldkj',
        iss: 'https://auth.example.test',
      });
    });

    it('keeps the query the redirect URI already has', async () => {
      authorization.check.mockResolvedValue({
        ok: false,
        refusal: { error: 'invalid_scope', redirectable: true },
      });
      const outcome = await service.begin(
        request({ ...PARAMETERS, redirect_uri: 'https://app.example/cb?tenant=a', state: '' }),
        undefined,
      );
      expect((outcome as { location: string }).location).toBe(
        'https://app.example/cb?tenant=a&error=invalid_scope&state=&iss=https%3A%2F%2Fauth.example.test',
      );
    });

    it('sends a valid request without a session to the login, coming back to the same request', async () => {
      authorization.check.mockResolvedValue({ ok: true, request: acceptedRequest() });
      const outcome = await service.begin(request(), undefined);
      expect(outcome).toMatchObject({ kind: 'login', sessionEnded: false });
      const location = new URL((outcome as { location: string }).location, 'https://auth.example.test');
      expect(location.pathname).toBe('/auth/login');
      const returnTo = new URL(location.searchParams.get('return_to') ?? '', 'https://auth.example.test');
      expect(returnTo.pathname).toBe('/oauth/authorize');
      expect(Object.fromEntries(returnTo.searchParams)).toEqual(PARAMETERS);
      expect(sessions.resolve).not.toHaveBeenCalled();
    });

    it('sends an expired session to the login and drops its cookie', async () => {
      authorization.check.mockResolvedValue({ ok: true, request: acceptedRequest() });
      sessions.resolve.mockResolvedValue(undefined);
      await expect(service.begin(request(), 'expired')).resolves.toMatchObject({
        kind: 'login',
        sessionEnded: true,
      });
    });

    it('shows the consent screen to a signed-in user with the CSRF token of their session', async () => {
      authorization.check.mockResolvedValue({ ok: true, request: acceptedRequest() });
      sessions.resolve.mockResolvedValue({ user: userFactory(), authTime: new Date() });
      const outcome = await service.begin(request(), 'session-1');
      expect(outcome).toEqual({
        kind: 'consent',
        formActions: ['https://dashboard.example.com'],
        view: {
          clientName: 'Dashboard',
          redirectUri: 'https://dashboard.example.com/callback',
          scopes: [{ name: 'jobs.read', description: 'List and view job executions' }],
          user: { name: 'Alice Admin', email: 'alice@acme.example' },
          parameters: PARAMETERS,
          csrfToken: csrf.tokenFor('session-1'),
          returnTo: expect.stringMatching(/^\/oauth\/authorize\?client_id=dashboard&/),
        },
      });
      expect(sessions.resolve).toHaveBeenCalledWith('session-1');
    });

    it('passes only the authorization parameters to the check, missing ones left out', async () => {
      authorization.check.mockResolvedValue({ ok: true, request: acceptedRequest() });
      await service.begin(request('client_id=dashboard&display=page&foo=bar'), undefined);
      expect(authorization.check).toHaveBeenCalledWith({ client_id: 'dashboard' });
    });

    it('refuses a repeated client_id with an error page, before asking the control plane', async () => {
      await expect(
        service.begin(request('client_id=a&client_id=b&redirect_uri=https://x.example/cb'), undefined),
      ).rejects.toMatchObject({ code: 'validation_failed' });
      expect(authorization.check).not.toHaveBeenCalled();
    });

    it('redirects invalid_request for a request too long to come back to after login', async () => {
      authorization.check.mockResolvedValue({ ok: true, request: acceptedRequest() });
      const outcome = await service.begin(request({ ...PARAMETERS, state: 'x'.repeat(3000) }), undefined);
      const location = new URL((outcome as { location: string }).location);
      expect(location.searchParams.get('error')).toBe('invalid_request');
    });

    it('redirects invalid_request for another repeated parameter', async () => {
      authorization.check.mockResolvedValue({ ok: true, request: acceptedRequest() });
      const query = new URLSearchParams(PARAMETERS);
      query.append('scope', 'admin.*');
      const outcome = await service.begin(request(query.toString()), 'session-1');
      const location = new URL((outcome as { location: string }).location);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('state')).toBe('af0ifjsldkj');
      expect(sessions.resolve).not.toHaveBeenCalled();
    });
  });

  describe('begin, OpenID Connect', () => {
    const signedIn = (authTime = new Date()) =>
      sessions.resolve.mockResolvedValue({ user: userFactory({ id: 'user-1' }), authTime });
    const redirectError = (outcome: unknown) =>
      new URL((outcome as { location: string }).location).searchParams.get('error');

    beforeEach(() => authorization.check.mockResolvedValue({ ok: true, request: acceptedRequest() }));

    it('answers login_required to prompt=none without a session, never showing a page', async () => {
      const outcome = await service.begin(request({ ...PARAMETERS, prompt: 'none' }), undefined);
      expect(outcome.kind).toBe('redirect');
      expect(redirectError(outcome)).toBe('login_required');
    });

    it('decides prompt=none at once with the session, approving only what the control plane allows', async () => {
      signedIn();
      authorization.decide.mockResolvedValue({
        outcome: 'redirect',
        redirectTo: 'https://dashboard.example.com/callback?code=c',
      });
      const outcome = await service.begin(request({ ...PARAMETERS, prompt: 'none' }), 'session-1');
      expect(outcome).toEqual({
        kind: 'redirect',
        location: 'https://dashboard.example.com/callback?code=c',
      });
      expect(authorization.decide).toHaveBeenCalledWith(
        expect.objectContaining({ prompt: 'none' }),
        'session-1',
        true,
      );
    });

    it('sends prompt=login to log in again, coming back without login in prompt nor max_age', async () => {
      signedIn();
      const outcome = await service.begin(
        request({ ...PARAMETERS, prompt: 'login consent', max_age: '0', login_hint: 'ada@example.com' }),
        'session-1',
      );
      expect(outcome.kind).toBe('login');
      const login = new URL((outcome as { location: string }).location, 'https://auth.example.test');
      expect(login.pathname).toBe('/auth/login');
      expect(login.searchParams.get('prompt')).toBe('login');
      expect(login.searchParams.get('login_hint')).toBe('ada@example.com');
      const back = new URL(login.searchParams.get('return_to')!, 'https://auth.example.test');
      expect(back.searchParams.get('prompt')).toBe('consent');
      expect(back.searchParams.has('max_age')).toBe(false);
      expect(back.searchParams.get('state')).toBe(PARAMETERS.state);
    });

    it('sends a login older than max_age to log in again, and shows consent to a recent one', async () => {
      signedIn(new Date(Date.now() - 120_000));
      expect((await service.begin(request({ ...PARAMETERS, max_age: '60' }), 'session-1')).kind).toBe(
        'login',
      );
      expect((await service.begin(request({ ...PARAMETERS, max_age: '600' }), 'session-1')).kind).toBe(
        'consent',
      );
    });

    it('refuses with login_required when the id_token_hint names someone else than the session', async () => {
      signedIn();
      authorization.check.mockResolvedValue({
        ok: true,
        request: acceptedRequest({ hintedSubject: 'user-2' }),
      });
      const outcome = await service.begin(request({ ...PARAMETERS, id_token_hint: 'x.y.z' }), 'session-1');
      expect(redirectError(outcome)).toBe('login_required');
    });
  });

  describe('decide', () => {
    const form = (parameters: AuthorizeParameters = PARAMETERS) =>
      request(parameters as Record<string, string>);

    it('refuses a post without a CSRF token, and issues nothing', async () => {
      await expect(service.decide(form(), 'session-1', undefined, 'approve')).rejects.toMatchObject({
        code: 'forbidden',
      });
      expect(authorization.decide).not.toHaveBeenCalled();
    });

    it('refuses a wrong CSRF token', async () => {
      await expect(service.decide(form(), 'session-1', 'forged', 'approve')).rejects.toMatchObject({
        code: 'forbidden',
      });
      expect(authorization.decide).not.toHaveBeenCalled();
    });

    it('refuses the CSRF token of another session', async () => {
      await expect(
        service.decide(form(), 'session-1', csrf.tokenFor('session-2'), 'approve'),
      ).rejects.toMatchObject({ code: 'forbidden' });
      expect(authorization.decide).not.toHaveBeenCalled();
    });

    it('refuses a post without a session cookie', async () => {
      await expect(
        service.decide(form(), undefined, csrf.tokenFor('session-1'), 'approve'),
      ).rejects.toMatchObject({ code: 'forbidden' });
    });

    it('approves: the control plane issues the code and the browser goes where it says', async () => {
      authorization.decide.mockResolvedValue({
        outcome: 'redirect',
        redirectTo: 'https://dashboard.example.com/callback?code=abc&state=af0ifjsldkj',
      });
      const outcome = await service.decide(form(), 'session-1', csrf.tokenFor('session-1'), 'approve');
      expect(outcome).toEqual({
        kind: 'redirect',
        location: 'https://dashboard.example.com/callback?code=abc&state=af0ifjsldkj',
      });
      expect(authorization.decide).toHaveBeenCalledWith(PARAMETERS, 'session-1', true);
    });

    it('denies with approved false', async () => {
      authorization.decide.mockResolvedValue({ outcome: 'redirect', redirectTo: 'https://x.example/cb' });
      await service.decide(form(), 'session-1', csrf.tokenFor('session-1'), 'deny');
      expect(authorization.decide).toHaveBeenCalledWith(PARAMETERS, 'session-1', false);
    });

    it('refuses a decision that is neither approve nor deny', async () => {
      await expect(
        service.decide(form(), 'session-1', csrf.tokenFor('session-1'), 'maybe'),
      ).rejects.toMatchObject({ code: 'validation_failed' });
      expect(authorization.decide).not.toHaveBeenCalled();
    });

    it('sends an expired session back to the login', async () => {
      authorization.decide.mockResolvedValue({ outcome: 'session-expired' });
      await expect(
        service.decide(form(), 'session-1', csrf.tokenFor('session-1'), 'approve'),
      ).resolves.toMatchObject({ kind: 'login', sessionEnded: true });
    });

    it('shows an error page for a refusal that is not redirectable', async () => {
      authorization.decide.mockResolvedValue({
        outcome: 'refused',
        refusal: { error: 'invalid_request', redirectable: false },
      });
      await expect(
        service.decide(form(), 'session-1', csrf.tokenFor('session-1'), 'approve'),
      ).rejects.toMatchObject({ code: 'validation_failed' });
    });
  });
});
