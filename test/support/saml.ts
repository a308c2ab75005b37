import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import type { TestSigningKey } from '../../libs/domain/src/testing/saml-test-idp';
import type { CookieJar } from './cookie-jar';
import { adminToken, discover, registerApp } from './oauth';
import { identityOf, signIn } from './internal-consent';
import type { TestPlatform } from './platform';
import { describeWithPrerequisite } from './prerequisite';
import { PYTHON } from './python';

export const SAML2_BEARER = 'urn:ietf:params:oauth:grant-type:saml2-bearer';

/** `describe` for suites that run Debian's pysaml2 (scripts/ci-python.sh installs it with xmlsec1). */
export function describeWithPysaml2(name: string, suite: () => void): void {
  describeWithPrerequisite(
    name,
    {
      present:
        spawnSync(PYTHON, ['-c', 'import saml2.server'], { stdio: 'ignore' }).status === 0 &&
        spawnSync('xmlsec1', ['--version'], { stdio: 'ignore' }).status === 0,
      needs: `pysaml2 for ${PYTHON} and xmlsec1`,
      install: 'apt-get install python3-pysaml2 xmlsec1',
      ciScript: 'scripts/ci-python.sh',
      kind: 'SAML',
    },
    suite,
  );
}

export interface SamlIdpUser {
  password: string;
  name_id: string;
  attributes: Record<string, string[]>;
}

/** The pysaml2 identity provider of test/support/saml-idp.py, for one tenant's SP metadata. */
export class Pysaml2Idp {
  baseUrl = '';
  entityId = '';
  private process?: ChildProcess;
  private readonly dir = mkdtempSync(join(tmpdir(), 'pysaml2-idp-'));

  constructor(
    private readonly key: TestSigningKey,
    private readonly users: Record<string, SamlIdpUser>,
  ) {}

  async start(spMetadata: string): Promise<void> {
    const files = { key_file: join(this.dir, 'key.pem'), cert_file: join(this.dir, 'cert.pem') };
    writeFileSync(files.key_file, this.key.privateKeyPem, { mode: 0o600 });
    writeFileSync(files.cert_file, this.key.certificatePem);
    const spMetadataFile = join(this.dir, 'sp.xml');
    writeFileSync(spMetadataFile, spMetadata);
    this.process = spawn(PYTHON, [resolve(__dirname, 'saml-idp.py')], {
      env: {
        ...process.env,
        SAML_IDP_CONFIG: JSON.stringify({ ...files, sp_metadata_file: spMetadataFile, users: this.users }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let errors = '';
    this.process.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const started = await new Promise<{ base_url: string; entity_id: string }>((done, fail) => {
      this.process!.once('exit', (code) => fail(new Error(`the pysaml2 IdP exited (${code}): ${errors}`)));
      this.process!.stdout!.once('data', (line: Buffer) => done(JSON.parse(line.toString())));
    });
    this.baseUrl = started.base_url;
    this.entityId = started.entity_id;
  }

  async metadata(): Promise<string> {
    const response = await fetch(`${this.baseUrl}/metadata`);
    if (response.status !== 200) throw new Error(`IdP metadata: ${response.status}`);
    return response.text();
  }

  stop(): void {
    this.process?.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A tenant administrator's token, as one gets it: a user of `tenant` with `tenant_admin` signs in
 * to a web app declaring the `saml.*` actions (the code flow, openid-client).
 */
export async function tenantAdminToken(
  platform: TestPlatform,
  tenant: string,
  suffix: string,
): Promise<string> {
  const admin = await adminToken(await discover(platform), platform);
  const console = await registerApp(platform, admin, {
    client_id: `saml-console-${suffix}`,
    app_type: 'web',
    declared_scopes: ['saml.read', 'saml.write'],
    redirect_uris: [`https://console-${suffix}.example/callback`],
  });
  const { tokens } = await signIn(platform, console, {
    identity: identityOf(`admin-${suffix}`, tenant, ['tenant_admin']),
    scope: 'saml.read saml.write',
  });
  return tokens.access_token;
}

/** PUT the IdP's metadata as the tenant's SAML identity provider (the admin REST route). */
export async function registerIdentityProvider(
  platform: TestPlatform,
  token: string,
  tenant: string,
  body: Record<string, unknown>,
): Promise<Response> {
  return fetch(`${platform.baseUrl}/api/v1/tenants/${tenant}/saml/identity-provider`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The AuthnRequest's ID in a HTTP-Redirect URL (deflated, base64, in `SAMLRequest`). */
export function requestIdOf(redirectUrl: string): string {
  const encoded = new URL(redirectUrl).searchParams.get('SAMLRequest') ?? '';
  const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  const id = /\sID="([^"]+)"/.exec(xml)?.[1];
  if (id === undefined) throw new Error('no ID in the AuthnRequest');
  return id;
}

/** A sign-in started as a browser does it: the redirect to the IdP and the request's ID. */
export async function startSamlLogin(
  baseUrl: string,
  jar: CookieJar,
  tenant: string,
  returnTo = '/',
): Promise<{ redirectUrl: string; requestId: string }> {
  const response = await jar.fetch(
    `${baseUrl}/saml/${tenant}/login?return_to=${encodeURIComponent(returnTo)}`,
  );
  if (response.status !== 302) throw new Error(`SAML login answered ${response.status}`);
  const redirectUrl = response.headers.get('location')!;
  return { redirectUrl, requestId: requestIdOf(redirectUrl) };
}

/** The IdP's auto-post form, as a browser submits it to the ACS. */
export function postToAcs(
  baseUrl: string,
  jar: CookieJar,
  tenant: string,
  samlResponse: string,
): Promise<Response> {
  return jar.fetch(`${baseUrl}/saml/${tenant}/acs`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: samlResponse }),
  });
}
