import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import {
  ActiveIntrospectionDto,
  Answers,
  EmptyObjectDto,
  InactiveIntrospectionDto,
  IntrospectionRequestDto,
  INTERNAL_OAUTH_OPERATIONS,
  internalPathOf,
  JsonWebKeySetDto,
  KEY_SET_OPERATIONS,
  NO_STORE,
  OAuthOperation,
  OAuthRefusal,
  PublicOperation,
  RateLimited,
  RevocationRequestDto,
  ServerFailures,
  TOKEN_REQUESTS,
  TokenResponseDto,
} from '@platform/contract';
import type { PlatformRequest } from '@platform/http';
import { metrics } from '@platform/telemetry';
import type { FastifyReply } from 'fastify';
import { LocalRevocation } from '../auth/local-revocation';
import type { UpstreamResponse } from '../clients/control-plane.client';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';
import { ClientRateLimits } from './client-rate-limits';
import { LocalIntrospection } from './local-introspection';

const NOT_FORM: [string, string] = [
  'invalid_request',
  'The request body must be application/x-www-form-urlencoded',
];
const TOO_LARGE: [string, string] = ['invalid_request', 'Request body is too large'];
const BOTH_METHODS: [string, string] = ['invalid_request', 'client authenticated with more than one method'];

export const TOKEN_DESCRIPTION = [
  'Issues an access token for one of four grants: `client_credentials` (service model), `authorization_code` with PKCE S256, `refresh_token` (rotating), and token exchange (`urn:ietf:params:oauth:grant-type:token-exchange`, RFC 8693: delegation and impersonation, docs/tokens.md). Every grant takes `resource` (RFC 8707): the token is then for that one registered resource.',
  '',
  "Clients authenticate with their secret (`client_secret_basic` or `client_secret_post`) or, registered for `private_key_jwt`, with a signed `client_assertion` (RFC 7523 section 2.2); the JWT bearer grant (`urn:ietf:params:oauth:grant-type:jwt-bearer`, RFC 7523 section 2.1) trades a workload's own token from an issuer a tenant trusts, with no client authentication (docs/workload-identity.md). The SAML 2.0 bearer grant (`urn:ietf:params:oauth:grant-type:saml2-bearer`, RFC 7522) trades an assertion of the client's tenant's SAML identity provider for a token of the user it names (docs/saml.md).",
  '',
  'A `DPoP` proof header (RFC 9449) binds the access token to the proof key (`cnf.jkt`; the answer says `token_type: DPoP`), and a public client\'s refresh token too; such a token is then presented as `Authorization: DPoP` with a proof at every use (docs/tokens.md, "DPoP").',
  '',
  'Only `application/x-www-form-urlencoded` is accepted (a JSON body is `400 invalid_request`). Every answer carries `Cache-Control: no-store`.',
  '',
  'Status per condition (the specification leaves these "not shown"; RFC 6749 section 5.2 decides):',
  '- invalid client credentials: **401** `invalid_client` (with `WWW-Authenticate: Basic realm="oauth"` when Basic was tried);',
  '- a scope the app did not declare, or one beyond the original grant on refresh: **400** `invalid_scope`;',
  '- a wrong `code_verifier`, a code that is unknown, expired (60 s), already used or issued to another client, a `redirect_uri` that differs, or a refresh token that is unknown, expired, revoked or already rotated: **400** `invalid_grant` (a reused code or rotated refresh token also revokes every token of its grant);',
  '- a missing `grant_type`, `code`, `code_verifier` or `refresh_token`, a repeated parameter, two authentication methods at once, a body that is not form-encoded or larger than 64 KiB: **400** `invalid_request`;',
  '- a grant the app type may not use (for example `client_credentials` for a `web` app), or a token exchange or impersonation its registry entry does not allow: **400** `unauthorized_client`;',
  '- a `resource` or `audience` that is not a registered resource, has a fragment, is not among the audiences the client may exchange for, or comes twice: **400** `invalid_target`;',
  "- token exchange: a missing `subject_token` or `subject_token_type`, an unsupported token type, a subject or actor token that is invalid, expired, revoked, issued for another resource or client, not allowed by its `may_act`, or an impersonation the actor may not perform (no `users.impersonate` for the user's tenant, a `global_admin` target, impersonation disabled in the tenant, no `reason`): **400** `invalid_request` (RFC 8693 section 2.2.2); a `scope` beyond the subject token: **400** `invalid_scope`;",
  '- a `DPoP` proof (RFC 9449) that is malformed, of a refused algorithm, for another method or URL, stale or replayed; none from an app registered with `dpop_bound_access_tokens`, or on the refresh of a DPoP-bound refresh token: **400** `invalid_dpop_proof`; with `DPOP_NONCE_REQUIRED`, a proof without the current nonce: **400** `use_dpop_nonce` with `DPoP-Nonce` (docs/tokens.md, "DPoP");',
  '- any other `grant_type`: **400** `unsupported_grant_type`.',
].join('\n');

export const TOKEN_REFUSALS: Record<string, [string, string]> = {
  invalidScope: ['invalid_scope', 'scope not declared by the client: files.write'],
  invalidGrantVerifier: ['invalid_grant', 'code_verifier does not match the code_challenge'],
  invalidGrantReuse: ['invalid_grant', 'the code was already used'],
  missingGrantType: ['invalid_request', 'grant_type is required'],
  notForm: NOT_FORM,
  tooLarge: TOO_LARGE,
  bothMethods: BOTH_METHODS,
  unauthorizedClient: ['unauthorized_client', 'a web app may not use client_credentials'],
  unsupportedGrantType: ['unsupported_grant_type', 'grant_type password is not supported'],
  invalidTarget: ['invalid_target', 'the resource is not registered'],
  invalidSubjectToken: ['invalid_request', 'the subject_token is invalid, expired or revoked'],
  invalidDpopProof: ['invalid_dpop_proof', 'the DPoP proof htu does not match the request URL'],
};

const JWKS = KEY_SET_OPERATIONS.jwks;
const JWKS_CACHE_CONTROL = 'public, max-age=60';
const ANSWERED_HERE = metrics.introspections.labels('backend');
const RELAYED = metrics.introspections.labels('control_plane');

/**
 * RFC 6749 token, RFC 7662 introspection, RFC 7009 revocation, and the key set. The control
 * plane verifies clients and signs; the edge passes the form and Authorization header on.
 */
@Controller('v1')
export class OAuthController {
  constructor(
    private readonly relay: ControlPlaneRelay,
    private readonly localRevocation: LocalRevocation,
    private readonly limits: ClientRateLimits,
    private readonly localIntrospection: LocalIntrospection,
  ) {}

  @Post('oauth/token')
  @OAuthOperation(
    { id: 'issueToken', tag: 'OAuth', summary: 'Token endpoint (RFC 6749)', description: TOKEN_DESCRIPTION },
    [...TOKEN_REQUESTS],
  )
  @Answers(200, TokenResponseDto, 'The token response.', { headers: NO_STORE })
  @OAuthRefusal(400, 'A refused request, by RFC 6749 error code.', TOKEN_REFUSALS)
  @RateLimited()
  async token(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!(await this.limits.admit(request, reply))) return;
    return this.relay.forwardTokenRequest(request, reply, (response) => this.settled(request, response));
  }

  @Post('oauth/introspect')
  @OAuthOperation(
    {
      id: 'introspectToken',
      tag: 'OAuth',
      summary: 'Token introspection (RFC 7662)',
      description:
        'Tells a resource server whether a token is active. The caller authenticates with its secret (Basic or form). It sees its own tokens in the full form; an app declaring `admin.*` or `tokens.introspect` sees any token; for anything else the answer is exactly `{"active": false}` with status 200, as for an expired, revoked or unknown token.',
    },
    IntrospectionRequestDto,
  )
  @Answers(200, ActiveIntrospectionDto, 'Active (full form) or exactly `{"active": false}`.', {
    headers: NO_STORE,
    oneOf: [ActiveIntrospectionDto, InactiveIntrospectionDto],
  })
  @OAuthRefusal(400, '`invalid_request`: no `token`, a repeated parameter, or a body that is not a form.', {
    missingToken: ['invalid_request', 'token is required'],
    notForm: NOT_FORM,
    tooLarge: TOO_LARGE,
    bothMethods: BOTH_METHODS,
  })
  @RateLimited()
  async introspect(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    const attempt = this.localIntrospection.read(request);
    if (!(await this.limits.admit(request, reply, attempt?.credentials.clientId))) return;
    const answer = attempt && this.localIntrospection.answer(attempt);
    if (answer !== undefined) {
      ANSWERED_HERE.inc();
      await this.limits.settle(request, 200);
      await reply
        .status(200)
        .headers({ 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' })
        .send(JSON.stringify(answer));
      return;
    }
    return this.relay.forward(request, reply, {
      to: '/internal/v1/oauth/introspect',
      body: 'form',
      then: (response) => {
        RELAYED.inc();
        this.localIntrospection.settle(attempt, response);
        return this.settled(request, response);
      },
    });
  }

  @Post('oauth/revoke')
  @OAuthOperation(
    {
      id: 'revokeToken',
      tag: 'OAuth',
      summary: 'Token revocation (RFC 7009)',
      description:
        'Revokes an access token (its `jti` joins the deny-list; this backend’s sidecar knows before the answer, every other within well under a second, at most 30 s) or a refresh token (with every token of its grant). Unknown, expired and already revoked tokens answer 200 as well. A client may revoke only its own tokens (another app’s token: **400** `unauthorized_client`, as fosite does), except the admin app. An app without a secret (`spa`) sends its `client_id` alone. The answer body is always `{}` (a decision: RFC 7009 only asks for 200).',
    },
    RevocationRequestDto,
  )
  @Answers(200, EmptyObjectDto, 'Revoked, or nothing to revoke.', { headers: NO_STORE })
  @OAuthRefusal(400, '`invalid_request` or `unauthorized_client`.', {
    missingToken: ['invalid_request', 'token is required'],
    notOwner: ['unauthorized_client', 'the token was not issued to this client'],
    notForm: NOT_FORM,
    tooLarge: TOO_LARGE,
    bothMethods: BOTH_METHODS,
  })
  @RateLimited()
  async revoke(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!(await this.limits.admit(request, reply))) return;
    return this.relay.forward(request, reply, {
      to: `/${internalPathOf(INTERNAL_OAUTH_OPERATIONS.revoke)}`,
      body: 'form',
      then: async (response) => {
        await this.settled(request, response);
        // Persisted: this backend refuses the token (and what else it revoked) from the next request on.
        if (response.status !== 200) return;
        await this.localRevocation.applyNow(new URLSearchParams(request.rawBody).get('token') ?? undefined);
      },
    });
  }

  /** Every OAuth answer: `no-store`, and a failed client authentication counted. */
  private settled(request: PlatformRequest, response: UpstreamResponse): Promise<void> {
    noStore(response);
    return this.limits.settle(request, response.status);
  }

  @Get('jwks')
  @PublicOperation(JWKS)
  @Answers(JWKS.answer.status, JsonWebKeySetDto, JWKS.answer.description)
  @ServerFailures()
  jwks(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: `/${internalPathOf(JWKS)}`,
      forwardAuthorization: false,
      then: (response) => {
        if (response.status === 200) response.headers['cache-control'] = JWKS_CACHE_CONTROL;
      },
    });
  }
}

/** OAuth answers carry `Cache-Control: no-store` (RFC 6749 section 5.1) when the control plane set none. */
export function noStore(response: UpstreamResponse): void {
  response.headers['cache-control'] ??= 'no-store';
}
