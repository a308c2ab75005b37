import { Controller, Get, Inject, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBody, ApiConsumes, ApiParam, ApiProduces, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { PlatformConfig } from '@platform/config';
import {
  BrowserOperation,
  FORM,
  Page,
  Redirects,
  SAML_RESPONSE_MAX_LENGTH,
  SamlResponseFormDto,
} from '@platform/contract';
import {
  DomainError,
  readAppLoginRequest,
  samlServiceProvider,
  serviceProviderMetadata,
  TENANT_PATTERN,
} from '@platform/domain';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { BrowserErrorFilter } from '../browser/browser-error.filter';
import { BrowserCookies } from '../browser/cookies';
import { browserHeaders } from '../browser/html';
import { formFields, sendRedirect } from '../browser/respond';
import { MAX_RETURN_TO_LENGTH, safeReturnTo } from '../browser/return-to';
import { AppLoginClient } from '../clients/app-login.client';
import { PLATFORM_CONFIG } from '../config';
import { SamlClient } from './saml.client';
import { SamlTransactions, type SamlTransaction } from './saml-transactions';

const TAG = 'SAML sign-in';
const TENANT_PARAM = ApiParam({
  name: 'tenant',
  required: true,
  example: 'acme',
  description: 'The tenant whose IdP signs the user in.',
});
const NO_IDP_PAGE = 'Error page: the tenant has no SAML identity provider.';
const METADATA_TYPE = 'application/samlmetadata+xml';
/** The ACS's form: the SAMLResponse field is then never longer than the control plane takes. */
const ACS_BODY_LIMIT = SAML_RESPONSE_MAX_LENGTH;

/**
 * SAML 2.0 Web Browser SSO for a tenant (docs/saml.md), SP-initiated: the sign-in leaves for the
 * tenant's IdP with an AuthnRequest (HTTP-Redirect), its ID sealed in a cookie that binds the
 * answer to this browser; the IdP's Response comes back to the ACS (HTTP-POST) and the control
 * plane judges it and opens the same browser session as the OpenID Connect login. The tenant's
 * SP metadata is published for its IdP administrator.
 */
@Controller()
@UseFilters(BrowserErrorFilter)
export class SamlController {
  constructor(
    private readonly saml: SamlClient,
    private readonly transactions: SamlTransactions,
    private readonly cookies: BrowserCookies,
    private readonly appLogin: AppLoginClient,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  @Get('saml/:tenant/login')
  @BrowserOperation(
    {
      id: 'samlLogin',
      tag: TAG,
      summary: 'Sign in through the tenant’s SAML identity provider',
      description:
        'Sends an AuthnRequest to the tenant’s IdP (HTTP-Redirect binding) and **302**s there; its ID is sealed in a short-lived cookie (`SameSite=None` over https, since the answer comes back as a cross-site POST), so the answer is taken from this browser only. `return_to` must be a path on this server (default `/`), such as `/oauth/authorize?...`; anything else is a **400** page. A tenant without a SAML IdP: **404** page.',
    },
    { session: 'none' },
  )
  @TENANT_PARAM
  @ApiQuery({
    name: 'return_to',
    required: false,
    type: 'string',
    description: 'A path on this server to come back to after sign-in.',
  })
  @Redirects(302, 'To the identity provider.')
  @Page(400, 'Error page: `return_to` is not a path on this server.')
  @Page(404, NO_IDP_PAGE)
  async login(
    @Param('tenant') tenant: string,
    @Query('return_to') returnTo: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const target = returnTo === undefined ? '/' : safeReturnTo(returnTo);
    if (target === undefined) {
      throw new DomainError(
        'validation_failed',
        'return_to must be a path on this server, such as /oauth/authorize?...',
      );
    }
    await this.leave(reply, checkedTenant(tenant), target);
  }

  @Get('api/v1/auth/saml/:tenant/login')
  @BrowserOperation(
    {
      id: 'samlAppLogin',
      tag: 'App login family',
      summary: 'Start an app’s user login through the tenant’s SAML identity provider',
      description:
        'The app login (`GET /api/v1/auth/oidc/login`, same parameters and answers) through the tenant’s SAML IdP: after the ACS, the browser goes to `return_to?code=<one-time code>&state=<state>`. `return_to` must equal a registered redirect URI of exactly one app; anything else, and a missing or malformed challenge or state, is a **400** page.',
    },
    { session: 'none' },
  )
  @TENANT_PARAM
  @ApiQuery({
    name: 'return_to',
    required: true,
    type: 'string',
    description: 'The app’s callback URL, a registered redirect URI.',
  })
  @ApiQuery({
    name: 'code_challenge',
    required: true,
    type: 'string',
    description: 'base64url(SHA-256(code_verifier)).',
  })
  @ApiQuery({ name: 'code_challenge_method', required: true, type: 'string', description: 'Only `S256`.' })
  @ApiQuery({ name: 'state', required: false, type: 'string', description: 'Echoed to `return_to`.' })
  @Redirects(302, 'To the identity provider.')
  @Page(
    400,
    'Error page: `return_to` is not a registered redirect URI of exactly one app, or no valid PKCE challenge or state.',
  )
  @Page(404, NO_IDP_PAGE)
  async appLoginStart(
    @Param('tenant') tenant: string,
    @Query() query: Record<string, unknown>,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const returnTo = query.return_to;
    if (typeof returnTo !== 'string' || returnTo === '' || returnTo.length > MAX_RETURN_TO_LENGTH) {
      throw new DomainError(
        'validation_failed',
        'return_to is required: the URL of your application callback, as registered.',
      );
    }
    const checked = checkedTenant(tenant);
    const request = readAppLoginRequest(query);
    const target = await this.appLogin.target(returnTo);
    await this.leave(reply, checked, target.returnTo, { clientId: target.clientId, ...request });
  }

  @Post('saml/:tenant/acs')
  @RouteConfig({ bodyLimit: ACS_BODY_LIMIT })
  @BrowserOperation(
    {
      id: 'samlAssertionConsumer',
      tag: TAG,
      summary: 'The AssertionConsumerService (HTTP-POST binding)',
      description:
        'Where the IdP’s page posts the SAML Response. The control plane validates it (docs/saml.md, "Validation": signature of the registered IdP with RSA-SHA256 or stronger over the assertion consumed, issuer, audience, recipient, destination, times with 60 s of clock skew, `InResponseTo` this browser’s request, the assertion used once) and opens a session (cookie, 8 hours); **302** to the sign-in’s `return_to`, or for the app login to the app with a one-time `code`. Any refusal: **400** page naming its reason code, audited `saml.login_refused`; a deactivated user: **403** page.',
    },
    { session: 'none' },
  )
  @TENANT_PARAM
  @ApiConsumes(FORM)
  @ApiBody({ type: SamlResponseFormDto })
  @Redirects(302, 'Signed in: to `return_to` (or to the app with a one-time code).')
  @Page(400, 'Error page: the Response is refused (its reason code shown), or the form has no SAMLResponse.')
  @Page(403, 'Error page: the account is deactivated.')
  @Page(404, NO_IDP_PAGE)
  @Page(413, 'Error page: the form is larger than the largest Response taken.')
  @Page(415, 'Error page: the form was not posted as `application/x-www-form-urlencoded`.')
  async acs(
    @Param('tenant') tenant: string,
    @Req() request: PlatformRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const checked = checkedTenant(tenant);
    const form = formFields(request);
    const samlResponse = form.get('SAMLResponse');
    const transaction = this.transactions.open(this.cookies.samlTransaction(request));
    this.cookies.clearSamlTransaction(reply); // single use, whatever happens next
    if (samlResponse === null || samlResponse === '') {
      throw new DomainError('validation_failed', 'The form holds no SAMLResponse.');
    }
    const mine = transaction !== undefined && transaction.tenant === checked ? transaction : undefined;
    const session = await this.saml.finish(checked, samlResponse, mine?.requestId);
    const maxAge = (session.expiresAt.getTime() - Date.now()) / 1000;
    this.cookies.setSession(reply, session.session, maxAge);
    // The control plane takes no answer without this browser's request: `mine` is there.
    if (mine === undefined)
      throw new DomainError('validation_failed', 'This sign-in was started in another browser.');
    const { returnTo, app } = mine;
    if (app === undefined) return sendRedirect(reply, 302, returnTo);
    await sendRedirect(reply, 302, await this.appLogin.issueCode(session.session, { ...app, returnTo }));
  }

  @Get('saml/:tenant/metadata')
  @BrowserOperation(
    {
      id: 'samlServiceProviderMetadata',
      tag: TAG,
      summary: 'The tenant’s SAML service provider metadata',
      description:
        'Our SP for `{tenant}` as its IdP is configured with: entity id (this URL), the AssertionConsumerService for HTTP-POST, signed assertions wanted, requests unsigned. Served whether or not the tenant registered an IdP yet (its administrator configures the IdP first).',
    },
    { session: 'none' },
  )
  @TENANT_PARAM
  @ApiProduces(METADATA_TYPE)
  @ApiResponse({
    status: 200,
    description: 'The SP metadata.',
    content: { [METADATA_TYPE]: { schema: { type: 'string' } } },
  })
  @Page(400, 'Error page: the request cannot be processed (text that cannot be stored, such as a NUL).')
  @Page(404, 'Error page: not a tenant name.')
  async metadata(@Param('tenant') tenant: string, @Res() reply: FastifyReply): Promise<void> {
    const sp = samlServiceProvider(this.config.issuer, checkedTenant(tenant));
    void reply.status(200).headers({
      ...browserHeaders(),
      'cache-control': 'public, max-age=300',
      'content-type': `${METADATA_TYPE}; charset=utf-8`,
    });
    await reply.send(serviceProviderMetadata(sp));
  }

  /** The AuthnRequest from the control plane, its ID sealed for this browser, and off to the IdP. */
  private async leave(
    reply: FastifyReply,
    tenant: string,
    returnTo: string,
    app?: SamlTransaction['app'],
  ): Promise<void> {
    const { redirectUrl, requestId } = await this.saml.start(tenant);
    const transaction: SamlTransaction = { tenant, requestId, returnTo, ...(app !== undefined && { app }) };
    this.cookies.setSamlTransaction(reply, this.transactions.seal(transaction));
    await sendRedirect(reply, 302, redirectUrl);
  }
}

function checkedTenant(tenant: string): string {
  if (!TENANT_PATTERN.test(tenant)) throw new DomainError('not_found', 'There is no such organisation.');
  return tenant;
}
