import { sessionTokens } from '../tokens/opaque-token';
import { createTestEngine, expectDomainError, TEST_IDENTITY, TEST_START } from '../testing/in-memory-stores';
import { SessionService } from './session.service';

const EIGHT_HOURS_MS = 8 * 3600 * 1000;

describe(SessionService.name, () => {
  it('creates a session for the user the provider vouched for, with its tenant and roles', async () => {
    const { sessions } = await createTestEngine();
    const created = await sessions.create(TEST_IDENTITY);
    expect(created).toEqual({
      session: expect.stringMatching(/^plat_ss_[A-Za-z0-9_-]{43}$/),
      expiresAt: new Date(TEST_START.getTime() + EIGHT_HOURS_MS),
      user: {
        id: expect.any(String),
        issuer: 'https://idp.example.com',
        subject: 'ada',
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        tenant: 'acme',
        roles: ['tenant_admin'],
        groupRoles: [],
        userName: null,
        externalId: null,
        active: true,
        profile: null,
        version: 1,
        createdAt: TEST_START,
        updatedAt: TEST_START,
      },
    });
  });

  it('gives a user provisioned through SCIM the identity of its first login: by externalId = sub', async () => {
    const { sessions, stores } = await createTestEngine();
    const provisioned = {
      tenant: 'acme',
      userName: 'lovelace',
      externalId: 'ada',
      active: true,
      email: null,
      name: null,
    };
    await stores.users.insertProvisionedUser(
      { ...provisioned, id: 'scim-1', roles: ['user'], profile: {} },
      TEST_START,
    );

    const { user } = await sessions.create(TEST_IDENTITY);

    expect(user).toMatchObject({
      id: 'scim-1',
      userName: 'lovelace',
      issuer: 'https://idp.example.com',
      subject: 'ada',
    });
    expect(stores.audit.all()).toContainEqual(
      expect.objectContaining({ action: 'user.linked', target: 'scim-1' }),
    );
    await expect(sessions.create(TEST_IDENTITY)).resolves.toMatchObject({ user: { id: 'scim-1' } });
  });

  it('links by userName = email when no externalId matches, in the provider’s tenant only', async () => {
    const { sessions, stores } = await createTestEngine();
    const base = { externalId: null, active: true, email: null, name: null, roles: ['user'], profile: {} };
    await stores.users.insertProvisionedUser(
      { ...base, id: 'other-tenant', tenant: 'globex', userName: 'ADA@example.com' },
      TEST_START,
    );
    await stores.users.insertProvisionedUser(
      { ...base, id: 'by-email', tenant: 'acme', userName: 'ADA@example.com' },
      TEST_START,
    );

    await expect(sessions.create(TEST_IDENTITY)).resolves.toMatchObject({ user: { id: 'by-email' } });
  });

  it('opens no session for a deactivated user, and ends resolving the ones it had', async () => {
    const { sessions, stores } = await createTestEngine();
    const { session, user } = await sessions.create(TEST_IDENTITY);
    await stores.users.updateProvisionedUser(
      user.id,
      user.version,
      {
        tenant: 'acme',
        userName: 'ada',
        externalId: null,
        active: false,
        email: null,
        name: null,
        profile: {},
      },
      TEST_START,
    );

    await expectDomainError(sessions.create(TEST_IDENTITY), 'forbidden');
    await expectDomainError(sessions.resolve(session), 'unauthenticated');
  });

  it('stores only the hash of the session value', async () => {
    const { sessions, stores } = await createTestEngine();
    const { session, user } = await sessions.create(TEST_IDENTITY);
    expect(stores.sessions.all()).toEqual([
      {
        sessionHash: sessionTokens.hash(session),
        userId: user.id,
        createdAt: TEST_START,
        expiresAt: new Date(TEST_START.getTime() + EIGHT_HOURS_MS),
        endedAt: null,
      },
    ]);
  });

  it('keeps one user per identity and updates it at every login', async () => {
    const { sessions, clock } = await createTestEngine();
    const first = await sessions.create(TEST_IDENTITY);
    clock.advanceSeconds(60);
    const second = await sessions.create({
      ...TEST_IDENTITY,
      claims: { tenant: 'globex', roles: ['viewer'] },
    });
    expect(second.user).toMatchObject({
      id: first.user.id,
      tenant: 'globex',
      roles: ['viewer'],
      email: null,
    });
    expect(second.session).not.toBe(first.session);
  });

  it('resolves a live session to its user, read fresh', async () => {
    const { sessions, stores } = await createTestEngine();
    const { session, user } = await sessions.create(TEST_IDENTITY);
    await stores.users.setUserRoles(user.id, ['viewer'], TEST_START);
    await expect(sessions.resolve(session)).resolves.toMatchObject({ id: user.id, roles: ['viewer'] });
  });

  it('refuses an unknown session as unauthenticated', async () => {
    const { sessions } = await createTestEngine();
    await expectDomainError(sessions.resolve('forged'), 'unauthenticated');
  });

  it('lets a session live 8 hours', async () => {
    const { sessions, clock } = await createTestEngine();
    const { session } = await sessions.create(TEST_IDENTITY);
    clock.advance(EIGHT_HOURS_MS - 1);
    await expect(sessions.resolve(session)).resolves.toBeDefined();
    clock.advance(1);
    await expectDomainError(sessions.resolve(session), 'unauthenticated');
  });

  it('ends a session at logout, for good', async () => {
    const { sessions, stores } = await createTestEngine();
    const { session } = await sessions.create(TEST_IDENTITY);
    await sessions.end(session);
    await expectDomainError(sessions.resolve(session), 'unauthenticated');
    expect(stores.sessions.all()[0].endedAt).toEqual(TEST_START);
  });

  it('ends an unknown or already ended session without complaint', async () => {
    const { sessions } = await createTestEngine();
    const { session } = await sessions.create(TEST_IDENTITY);
    await sessions.end(session);
    await expect(sessions.end(session)).resolves.toMatchObject({ ended: false });
    await expect(sessions.end('never-issued')).resolves.toMatchObject({ ended: false });
  });

  it('leaves other sessions of the user alive when one ends', async () => {
    const { sessions } = await createTestEngine();
    const laptop = await sessions.create(TEST_IDENTITY);
    const phone = await sessions.create(TEST_IDENTITY);
    await sessions.end(laptop.session);
    await expect(sessions.resolve(phone.session)).resolves.toMatchObject({ id: phone.user.id });
  });
});
