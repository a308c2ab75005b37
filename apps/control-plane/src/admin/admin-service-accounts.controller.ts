import { Body, Controller, Post } from '@nestjs/common';
import { RegisterServiceAccountDto } from '@platform/contract';
import { ApplicationRegistry } from '@platform/domain';
import { AdminRoute } from '../platform/route-authority';

/** Service accounts (`POST /api/v1/apps/register`): a `service` app under a generated client_id. */
@Controller('api/v1/apps')
@AdminRoute()
export class AdminServiceAccountsController {
  constructor(private readonly registry: ApplicationRegistry) {}

  @Post('register')
  async register(@Body() body: RegisterServiceAccountDto) {
    const { app, clientSecret } = await this.registry.registerServiceAccount({
      name: body.name,
      declaredScopes: body.declared_scopes,
      tenant: body.tenant,
    });
    return {
      client_id: app.clientId,
      client_secret: clientSecret,
      name: app.name,
      declared_scopes: app.declaredScopes,
      app_type: app.appType,
      created_at: app.createdAt.toISOString(),
      ...(app.tenant !== null && { tenant: app.tenant }),
    };
  }
}
