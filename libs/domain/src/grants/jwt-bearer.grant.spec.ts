import { randomUUID } from 'node:crypto';
import {
  calculateJwkThumbprint,
  decodeJwt,
  exportJWK,
  generateKeyPair,
  type JWK,
  SignJWT,
  type JWTPayload,
} from 'jose';
import { AssertionReplays } from '../clients/assertion-replays';
import { ClientAuthenticator } from '../clients/client-authenticator';
import { KeySetCache } from '../clients/key-sets';
import { ManualClock } from '../clock';
import { INVALID_GRANT_DESCRIPTION } from '../errors';
import type { FederatedIssuer } from '../federation/workload-federation';
import { WorkloadTokenVerifier } from '../federation/workload-token-verifier';
import { JWT_BEARER_GRANT } from '../registry/application';
import {
  expectOAuthError,
  inMemoryStorage,
  seedApplication,
  signingKeyRingOn,
  TEST_ISSUER,
  TEST_START,
  testArgon2idHasher,
} from '../testing/in-memory-stores';
import { ACCESS_TOKEN_LIFETIME_SECONDS, JwtAccessTokenStrategy } from '../tokens/access-token';
import { JwtBearerGrant } from './jwt-bearer.grant';
import { TokenEndpoint, type TokenRequestProof } from './token-endpoint';
import { DpopProofVerifier, DpopReplayCache } from '../tokens/dpop';

const CLUSTER = 'https://oidc.cluster.example';
const CI = 'https://token.actions.example';
const AUDIENCE = TEST_ISSUER;

type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

/** An OpenID Provider's discovery document and key set, served to the verifier's fetch. */
class Issuers {
  fetches: string[] = [];
  private readonly keys = new Map<string, { privateKey: SigningKey; jwk: JWK }>();

  async add(issuer: string) {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    this.keys.set(issuer, {
      privateKey,
      jwk: { ...(await exportJWK(publicKey)), kid: `${issuer}#1`, alg: 'RS256' },
    });
  }

  readonly fetch = async (url: string) => {
    this.fetches.push(url);
    for (const [issuer, { jwk }] of this.keys) {
      if (url === `${issuer}/.well-known/openid-configuration`) {
        return Response.json({ issuer, jwks_uri: `${issuer}/keys` });
      }
      if (url === `${issuer}/keys`) return Response.json({ keys: [jwk] });
    }
    return new Response('not found', { status: 404 });
  };

  sign(issuer: string, claims: JWTPayload, signer = issuer) {
    const { privateKey, jwk } = this.keys.get(signer)!;
    return new SignJWT({ iss: issuer, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
      .sign(privateKey);
  }
}

/** A Kubernetes projected service-account token's claims (kubernetes.io docs, "ServiceAccount token volume projection"). */
function kubernetesClaims(now: number, namespace = 'payments', serviceAccount = 'ledger'): JWTPayload {
  return {
    aud: [AUDIENCE],
    exp: now + 3600,
    iat: now,
    nbf: now,
    jti: `k8s-${Math.random()}`,
    'kubernetes.io': {
      namespace,
      node: { name: 'node-a', uid: 'e0f7a1d4' },
      pod: { name: `${serviceAccount}-7d9f`, uid: '41b1c2d3' },
      serviceaccount: { name: serviceAccount, uid: 'a3c1e2f4' },
    },
    sub: `system:serviceaccount:${namespace}:${serviceAccount}`,
  };
}

/** A GitHub Actions OIDC token's claims (docs.github.com, "About security hardening with OpenID Connect"). */
function ciClaims(now: number, ref = 'refs/heads/main', repository = 'acme/ledger'): JWTPayload {
  return {
    jti: `ci-${Math.random()}`,
    sub: `repo:${repository}:ref:${ref}`,
    aud: AUDIENCE,
    ref,
    ref_type: 'branch',
    sha: '9f2c',
    repository,
    repository_owner: 'acme',
    repository_visibility: 'private',
    run_id: '42',
    run_number: '7',
    run_attempt: '1',
    actor: 'octocat',
    workflow: 'deploy',
    event_name: 'push',
    job_workflow_ref: `${repository}/.github/workflows/deploy.yml@${ref}`,
    runner_environment: 'github-hosted',
    nbf: now - 5,
    iat: now,
    exp: now + 300,
  };
}

async function setUp() {
  const clock = new ManualClock(TEST_START);
  const { stores, transactor } = inMemoryStorage();
  const issuers = new Issuers();
  await issuers.add(CLUSTER);
  await issuers.add(CI);
  await seedApplication(stores, {
    clientId: 'ledger',
    tenant: 'acme',
    declaredScopes: ['jobs.read', 'jobs.write'],
  });
  await seedApplication(stores, { clientId: 'deployer', tenant: 'acme', declaredScopes: ['secrets.read'] });
  const registration = (issuer: string, rules: FederatedIssuer['rules']): FederatedIssuer => ({
    id: `fi_${issuer.length}`,
    tenant: 'acme',
    issuer,
    jwksUri: null,
    rules,
    createdAt: TEST_START,
    updatedAt: TEST_START,
  });
  await stores.federatedIssuers.insertFederatedIssuer(
    registration(CLUSTER, [
      {
        name: 'ledger-pods',
        audience: AUDIENCE,
        claims: { '/kubernetes.io/namespace': 'payments', '/kubernetes.io/serviceaccount/name': 'ledger' },
        clientId: 'ledger',
        scopes: ['jobs.read', 'jobs.write'],
      },
    ]),
  );
  await stores.federatedIssuers.insertFederatedIssuer(
    registration(CI, [
      {
        name: 'deploy-from-main',
        audience: AUDIENCE,
        subject: 'repo:acme/ledger:ref:refs/heads/main',
        claims: { repository: 'acme/ledger', ref: 'refs/heads/main' },
        clientId: 'deployer',
        scopes: ['secrets.read'],
      },
    ]),
  );
  const keys = signingKeyRingOn(stores, transactor, clock);
  await keys.load();
  const accessTokens = new JwtAccessTokenStrategy(
    keys,
    { issuer: TEST_ISSUER, lifetimeSeconds: ACCESS_TOKEN_LIFETIME_SECONDS },
    clock,
  );
  const verifier = new WorkloadTokenVerifier(
    stores.federatedIssuers,
    stores.applications,
    new KeySetCache({ fetch: issuers.fetch, refreshCooldownMs: 0 }),
    issuers.fetch,
    new AssertionReplays(stores.assertionReplays),
    clock,
  );
  const events = { appendTokenEvents: jest.fn(async () => undefined) };
  const endpoint = new TokenEndpoint(
    [new JwtBearerGrant(verifier, accessTokens, events, clock)],
    new ClientAuthenticator(stores.applications, testArgon2idHasher),
    new DpopProofVerifier(new DpopReplayCache(), () => clock.seconds),
  );
  const exchange = async (
    assertion: string | Promise<string>,
    params: Record<string, string> = {},
    proof?: TokenRequestProof,
  ) =>
    endpoint.handle(
      { grant_type: JWT_BEARER_GRANT, assertion: await assertion, ...params },
      undefined,
      proof,
    );
  return { clock, stores, issuers, events, exchange, now: clock.seconds };
}

describe(JwtBearerGrant.name, () => {
  it('trades a Kubernetes service-account token for a token of the app its rule names', async () => {
    const { exchange, issuers, now, events } = await setUp();
    const answer = await exchange(issuers.sign(CLUSTER, kubernetesClaims(now)));
    const claims = decodeJwt(answer.access_token);
    expect(claims).toMatchObject({
      client_id: 'ledger',
      sub: 'ledger',
      tenant: 'acme',
      scope: 'jobs.read jobs.write',
    });
    expect(answer.token_type).toBe('Bearer');
    expect(events.appendTokenEvents).toHaveBeenCalledWith([
      expect.objectContaining({
        type: 'token.federated',
        clientId: 'ledger',
        tenant: 'acme',
        attributes: expect.objectContaining({
          issuer: CLUSTER,
          workload_subject: 'system:serviceaccount:payments:ledger',
          rule: 'ledger-pods',
          app: 'ledger',
        }),
      }),
    ]);
  });

  it('trades a CI job token of the main branch, with fewer scopes when asked, living no longer than it', async () => {
    const { exchange, issuers, now } = await setUp();
    const answer = await exchange(issuers.sign(CI, ciClaims(now)), { scope: 'secrets.read' });
    expect(decodeJwt(answer.access_token)).toMatchObject({ client_id: 'deployer', scope: 'secrets.read' });
    expect(answer.expires_in).toBe(300);
  });

  it.each([
    ['another namespace', (now: number) => issuers_(CLUSTER, kubernetesClaims(now, 'staging'))],
    ['another service account', (now: number) => issuers_(CLUSTER, kubernetesClaims(now, 'payments', 'web'))],
    [
      'another audience',
      (now: number) => issuers_(CLUSTER, { ...kubernetesClaims(now), aud: ['https://vault.example'] }),
    ],
    ['another branch', (now: number) => issuers_(CI, ciClaims(now, 'refs/heads/feature'))],
    ['another repository', (now: number) => issuers_(CI, ciClaims(now, 'refs/heads/main', 'mallory/ledger'))],
    [
      'an issuer nobody trusts',
      (now: number) => issuers_('https://evil.example', kubernetesClaims(now), CLUSTER),
    ],
    [
      'a trusted iss signed by another issuer’s key',
      (now: number) => issuers_(CLUSTER, kubernetesClaims(now), CI),
    ],
    ['an expired token', (now: number) => issuers_(CLUSTER, { ...kubernetesClaims(now), exp: now - 60 })],
    [
      'a token living more than a day',
      (now: number) => issuers_(CLUSTER, { ...kubernetesClaims(now), exp: now + 3 * 86400 }),
    ],
  ])('refuses %s with the one invalid_grant description', async (_, token) => {
    const { exchange, issuers, now } = await setUp();
    const refusal = exchange(token(now)(issuers));
    await expectOAuthError(refusal, 'invalid_grant');
    await expect(refusal).rejects.toMatchObject({ description: INVALID_GRANT_DESCRIPTION });
  });

  it('refuses the same token a second time (its jti), and a token without jti by its hash', async () => {
    const { exchange, issuers, now } = await setUp();
    const token = await issuers.sign(CLUSTER, kubernetesClaims(now));
    await exchange(token);
    await expectOAuthError(exchange(token), 'invalid_grant');

    const withoutJti = await issuers.sign(CI, { ...ciClaims(now), jti: undefined });
    await exchange(withoutJti);
    await expectOAuthError(exchange(withoutJti), 'invalid_grant');
  });

  it('binds the token to a DPoP proof sent with the assertion, and answers token_type DPoP', async () => {
    const { exchange, issuers, now } = await setUp();
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwk = await exportJWK(publicKey);
    const url = `${TEST_ISSUER}/v1/oauth/token`;
    const proof = await new SignJWT({ jti: randomUUID(), htm: 'POST', htu: url, iat: now })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
      .sign(privateKey);
    const answer = await exchange(issuers.sign(CLUSTER, kubernetesClaims(now)), {}, { proof, url });
    expect(answer.token_type).toBe('DPoP');
    expect(decodeJwt(answer.access_token).cnf).toEqual({ jkt: await calculateJwkThumbprint(jwk) });
  });

  it('refuses a scope beyond the rule', async () => {
    const { exchange, issuers, now } = await setUp();
    await expectOAuthError(
      exchange(issuers.sign(CI, ciClaims(now)), { scope: 'secrets.write' }),
      'invalid_scope',
    );
  });

  it('refuses a request without an assertion as invalid_request', async () => {
    const { exchange } = await setUp();
    await expectOAuthError(exchange(''), 'invalid_request');
  });

  it('discovers an issuer’s keys once and reuses them', async () => {
    const { exchange, issuers, now } = await setUp();
    await exchange(issuers.sign(CLUSTER, kubernetesClaims(now)));
    await exchange(issuers.sign(CLUSTER, kubernetesClaims(now)));
    expect(issuers.fetches.filter((url) => url.startsWith(CLUSTER))).toEqual([
      `${CLUSTER}/.well-known/openid-configuration`,
      `${CLUSTER}/keys`,
    ]);
  });
});

/** A token signed later, once the spec's issuers exist. */
function issuers_(issuer: string, claims: JWTPayload, signer = issuer) {
  return (issuers: Issuers) => issuers.sign(issuer, claims, signer);
}
