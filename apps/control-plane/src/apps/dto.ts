import type { ApplicationDto } from '@platform/contract';
import { clientAuthMethodOf, type Application } from '@platform/domain';

/** An application as the API shows it: never a secret or its hash. */
export function toApplicationResponse(app: Application): ApplicationDto {
  return {
    client_id: app.clientId,
    name: app.name,
    declared_scopes: app.declaredScopes,
    app_type: app.appType,
    redirect_uris: app.redirectUris,
    created_at: app.createdAt.toISOString(),
    rotated_at: app.rotatedAt?.toISOString() ?? null,
    ...(app.tenant !== null && { tenant: app.tenant }),
    resource_uri: app.resourceUri,
    token_exchange_audiences: app.exchangeAudiences,
    impersonation_allowed: app.mayImpersonate,
    dpop_bound_access_tokens: app.dpopBoundAccessTokens === true,
    post_logout_redirect_uris: app.postLogoutRedirectUris ?? [],
    backchannel_logout_uri: app.backchannelLogoutUri ?? null,
    token_endpoint_auth_method: clientAuthMethodOf(app),
    jwks: app.jwks ?? null,
    jwks_uri: app.jwksUri ?? null,
  };
}
