import { DomainError } from '@platform/domain';
import { CsrfTokens } from '../browser/csrf';
import type { DeviceClient, DeviceDecision, DevicePrompt } from '../clients/device.client';
import { testConfig } from '../testing/fakes';
import { DeviceVerificationService } from './device-verification.service';
import { USER_CODES_PER_ADDRESS, USER_CODES_PER_SESSION, UserCodeGuesses } from './user-code-guesses';

const CODE = 'BCDF-GHJK';
const PROMPT: DevicePrompt = {
  clientId: 'ops-cli',
  clientName: 'Ops CLI',
  userCode: CODE,
  scopes: [{ name: 'jobs.read', description: 'List and view job executions' }],
  user: { name: 'Ada' },
};

describe(DeviceVerificationService.name, () => {
  let devices: jest.Mocked<Pick<DeviceClient, 'check' | 'decide'>>;
  let csrf: CsrfTokens;
  let guesses: UserCodeGuesses;
  let service: DeviceVerificationService;

  beforeEach(() => {
    devices = {
      check: jest.fn(async (_session: string, code: string) =>
        code === 'BCDFGHJK'
          ? { outcome: 'prompt' as const, prompt: PROMPT }
          : { outcome: 'unknown' as const },
      ),
      decide: jest.fn(
        async (_session: string, _code: string, _approved: boolean): Promise<DeviceDecision> => ({
          outcome: 'decided',
          status: 'approved',
        }),
      ),
    };
    csrf = new CsrfTokens(Buffer.alloc(32, 1));
    guesses = new UserCodeGuesses(testConfig());
    service = new DeviceVerificationService(devices as unknown as DeviceClient, csrf, guesses);
  });
  afterEach(() => guesses.onApplicationShutdown());

  const enter = (code: string, session = 'session-a', address = '192.0.2.1') =>
    service.enter(session, csrf.tokenFor(session), code, address);

  it('sends a browser without a session to the login, coming back with the code', () => {
    expect(service.form(undefined, 'bcdf-ghjk')).toEqual({
      kind: 'login',
      location: `/auth/login?return_to=${encodeURIComponent('/device?user_code=BCDF-GHJK')}`,
      sessionEnded: false,
    });
  });

  it('fills the form in from the query, as the device shows the code', () => {
    expect(service.form('session-a', 'bcdfghjk')).toMatchObject({
      kind: 'form',
      status: 200,
      userCode: CODE,
    });
  });

  it('shows the consent page for a pending code typed in any form, with a token binding it to the session', async () => {
    const outcome = await enter('bcdf ghjk');

    expect(devices.check).toHaveBeenCalledWith('session-a', 'BCDFGHJK');
    expect(outcome).toMatchObject({
      kind: 'consent',
      view: { clientName: 'Ops CLI', parameters: { user_code: CODE }, action: '/device/decision' },
    });
    const token = outcome.kind === 'consent' ? outcome.view.csrfToken : '';
    expect(token).not.toBe(csrf.tokenFor('session-a'));
    await expect(service.decide('session-a', token, CODE, 'approve')).resolves.toEqual({
      kind: 'decided',
      status: 'approved',
    });
    expect(devices.decide).toHaveBeenCalledWith('session-a', 'BCDFGHJK', true);
  });

  it('refuses a decision whose token is the plain CSRF token, another session’s or another code’s', async () => {
    const consent = await enter(CODE);
    const token = consent.kind === 'consent' ? consent.view.csrfToken : '';
    for (const [session, presented, code] of [
      ['session-a', csrf.tokenFor('session-a'), CODE],
      ['session-b', token, CODE],
      ['session-a', token, 'BCDF-GHJL'],
    ]) {
      await expect(service.decide(session, presented, code, 'approve')).rejects.toMatchObject({
        code: 'forbidden',
      });
    }
    expect(devices.decide).not.toHaveBeenCalled();
  });

  it('refuses a post without the page’s CSRF token', async () => {
    await expect(service.enter('session-a', 'forged', CODE, '192.0.2.1')).rejects.toBeInstanceOf(DomainError);
    expect(devices.check).not.toHaveBeenCalled();
  });

  it('shows the form again for a wrong or malformed code, without asking for a malformed one', async () => {
    await expect(enter('BCDF-GHJL')).resolves.toMatchObject({
      kind: 'form',
      status: 400,
      problem: /not valid/,
    });
    await expect(enter('hello')).resolves.toMatchObject({ kind: 'form', status: 400, problem: /not valid/ });
    expect(devices.check).toHaveBeenCalledTimes(1);
  });

  it(`refuses a session any code beyond ${USER_CODES_PER_SESSION} in a minute, before looking it up`, async () => {
    for (let i = 0; i < USER_CODES_PER_SESSION; i += 1) await enter('BCDF-GHJL');

    await expect(enter(CODE)).resolves.toMatchObject({
      kind: 'form',
      status: 429,
      problem: /Too many codes/,
    });
    expect(devices.check).toHaveBeenCalledTimes(USER_CODES_PER_SESSION);
    await expect(enter(CODE, 'session-b')).resolves.toMatchObject({ kind: 'consent' });
  });

  it(`refuses an address any code beyond ${USER_CODES_PER_ADDRESS} in a minute, whatever the sessions`, async () => {
    for (let i = 0; i < USER_CODES_PER_ADDRESS; i += 1) await enter('BCDF-GHJL', `session-${i}`);

    await expect(enter(CODE, 'a-fresh-session')).resolves.toMatchObject({ kind: 'form', status: 429 });
    await expect(enter(CODE, 'a-fresh-session', '192.0.2.2')).resolves.toMatchObject({ kind: 'consent' });
  });

  it('sends an expired session to the login, dropping the cookie', async () => {
    devices.check.mockResolvedValueOnce({ outcome: 'session-expired' });
    await expect(enter(CODE)).resolves.toMatchObject({ kind: 'login', sessionEnded: true });
  });
});
