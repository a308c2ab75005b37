import { Body, Controller } from '@nestjs/common';
import { RegisterServiceAccountDto, SERVICE_ACCOUNT_OPERATIONS } from '@platform/contract';
import { ApplicationRegistry } from '@platform/domain';
import { Implements } from '../platform/implements';

/** Service accounts: a `service` app under a generated client_id (its secret rotates as any app's). */
@Controller()
export class AdminServiceAccountsController {
  constructor(private readonly registry: ApplicationRegistry) {}

  @Implements(SERVICE_ACCOUNT_OPERATIONS.register)
  async register(@Body() body: RegisterServiceAccountDto) {
    const { app, clientSecret } = await this.registry.registerServiceAccount({
      name: body.name,
      declaredScopes: body.declared_scopes,
      tenant: body.tenant,
    });
    // A service app, with a secret (only `spa` apps have none).
    return {
      client_id: app.clientId,
      client_secret: clientSecret!,
      name: app.name,
      declared_scopes: app.declaredScopes,
      app_type: 'service' as const,
      created_at: app.createdAt.toISOString(),
      ...(app.tenant !== null && { tenant: app.tenant }),
    };
  }
}
