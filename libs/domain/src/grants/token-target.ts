import { OAuthError } from '../errors';
import type { ApplicationStore } from '../registry/application';
import { resourceUriProblem } from '../registry/resource-uri';

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

  /** `resource`: the issuer, or a resource URI (the registry's rule, RFC 8707 section 2) registered as one. */
  async resource(resource: string | undefined): Promise<string | undefined> {
    if (resource === undefined || resource === this.issuer) return undefined;
    const problem = resourceUriProblem(resource);
    if (problem !== null) throw invalidTarget(`resource ${problem}`);
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
    // A client_id has no colon (CLIENT_ID_PATTERN); anything with one is meant as a URI.
    if (audience.includes(':')) return this.resource(audience);
    const app = await this.apps.findApplication(audience);
    if (!app?.resourceUri) throw invalidTarget('the audience is not a registered resource');
    return app.resourceUri;
  }
}
