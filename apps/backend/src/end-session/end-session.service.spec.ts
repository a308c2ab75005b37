import { DomainError } from '@platform/domain';
import { CsrfTokens } from '../browser/csrf';
import type { SessionsClient } from '../clients/sessions.client';
import type { CheckedEndSession, EndSessionClient } from './end-session.client';
import { EndSessionService } from './end-session.service';

const SIGNED_OUT = 'https://rp.example/signed-out?state=s1';

function serviceWith(checked: Partial<CheckedEndSession>) {
  const check = jest.fn().mockResolvedValue({
    clientName: 'Portal',
    redirectTo: SIGNED_OUT,
    sessionLive: true,
    hintMatchesSession: false,
    ...checked,
  });
  const end = jest.fn().mockResolvedValue(undefined);
  const csrf = new CsrfTokens(Buffer.alloc(32, 1));
  const service = new EndSessionService(
    { check } as unknown as EndSessionClient,
    { end } as unknown as SessionsClient,
    csrf,
  );
  return { service, check, end, csrf };
}

const request = new URLSearchParams({
  client_id: 'portal',
  post_logout_redirect_uri: 'https://rp.example/signed-out',
  state: 's1',
});

describe(EndSessionService.name, () => {
  it('asks before ending a session the request does not name, echoing the request and the CSRF token', async () => {
    const { service, end, csrf } = serviceWith({});

    const outcome = await service.handle(request, 'the-session', undefined);

    expect(end).not.toHaveBeenCalled();
    expect(outcome).toMatchObject({ kind: 'confirm', formActions: ['https://rp.example'] });
    const page = (outcome as { page: string }).page;
    expect(page).toContain(`name="csrf_token" value="${csrf.tokenFor('the-session')}"`);
    expect(page).toContain('name="post_logout_redirect_uri" value="https://rp.example/signed-out"');
    expect(page).toContain('<strong>Portal</strong> asks to sign you out');
  });

  it('ends the session at once when the hint names it, then sends the browser back', async () => {
    const { service, end, check } = serviceWith({ hintMatchesSession: true });

    await expect(
      service.handle(new URLSearchParams({ id_token_hint: 'a.b.c' }), 'the-session', undefined),
    ).resolves.toEqual({ kind: 'done', redirectTo: SIGNED_OUT });
    expect(check).toHaveBeenCalledWith({ idTokenHint: 'a.b.c' }, 'the-session');
    expect(end).toHaveBeenCalledWith('the-session');
  });

  it('ends the session on the confirmation page’s post, and refuses a foreign CSRF token', async () => {
    const { service, end, csrf } = serviceWith({});

    await expect(service.handle(request, 'the-session', 'forged')).rejects.toMatchObject({
      code: 'forbidden',
    });
    expect(end).not.toHaveBeenCalled();
    await expect(service.handle(request, 'the-session', csrf.tokenFor('the-session'))).resolves.toEqual({
      kind: 'done',
      redirectTo: SIGNED_OUT,
    });
    expect(end).toHaveBeenCalledTimes(1);
  });

  it('only sends the browser on without a live session', async () => {
    const { service, end } = serviceWith({ sessionLive: false, redirectTo: null });

    await expect(service.handle(request, undefined, undefined)).resolves.toEqual({
      kind: 'done',
      redirectTo: null,
    });
    expect(end).not.toHaveBeenCalled();
  });

  it('refuses a repeated parameter before asking anything', async () => {
    const { service, check } = serviceWith({});
    const repeated = new URLSearchParams('client_id=a&client_id=b');

    await expect(service.handle(repeated, 'the-session', undefined)).rejects.toBeInstanceOf(DomainError);
    expect(check).not.toHaveBeenCalled();
  });
});
