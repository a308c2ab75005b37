import { OAuthError } from '../errors';
import type { ApplicationStore } from '../registry/application';

const invalidTarget = (description: string) => new OAuthError('invalid_target', description);

/**
 * RFC 8707 resource indicators: the one resource a token request names, as the registry knows
 * it (an app's `resource_uri`, docs/tokens.md). The audience of the token; `undefined` when the
 * request names none, so the token keeps the issuer as its audience, as every token before.
 */
export class TokenTargets {
  constructor(
    private readonly apps: Pick<ApplicationStore, 'findApplication' | 'findApplicationByResource'>,
    private readonly issuer: string,
  ) {}

  /** `resource`: an absolute URI without a fragment (RFC 8707 section 2), registered as a resource. */
  async resource(resource: string | undefined): Promise<string | undefined> {
    if (resource === undefined) return undefined;
    if (!isAbsoluteUriWithoutFragment(resource)) {
      throw invalidTarget('resource must be an absolute URI without a fragment');
    }
    if (resource === this.issuer) return undefined;
    const app = await this.apps.findApplicationByResource(resource);
    if (!app) throw invalidTarget('the resource is not registered');
    return resource;
  }

  /**
   * RFC 8693 `audience`: a logical name of the target, here a registered resource URI or the
   * client_id of the app registered as that resource.
   */
  async audience(audience: string | undefined): Promise<string | undefined> {
    if (audience === undefined) return undefined;
    if (isAbsoluteUriWithoutFragment(audience)) return this.resource(audience);
    const app = await this.apps.findApplication(audience);
    if (!app?.resourceUri) throw invalidTarget('the audience is not a registered resource');
    return app.resourceUri;
  }
}

function isAbsoluteUriWithoutFragment(value: string): boolean {
  if (value.includes('#') || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}
