import { Body, Controller, Header, HttpCode, Inject, Post } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import { DomainError, SessionService, type ExternalIdentity } from '@platform/domain';
import { CreateSessionDto, SessionDto, toSessionResponse, toUserResponse } from './dto';
import { IdentityTokenVerifier } from './identity-token-verifier';
import { InternalRoute } from '../platform/route-authority';
import { PLATFORM_CONFIG } from '../platform/tokens';

/** Browser sessions, opened by the backend once the identity provider vouched for the user. */
@Controller('internal/v1/sessions')
@InternalRoute()
export class SessionsController {
  constructor(
    private readonly sessions: SessionService,
    private readonly verifier: IdentityTokenVerifier,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  @Post()
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  async create(@Body() body: CreateSessionDto) {
    return toSessionResponse(await this.sessions.create(await this.identityOf(body)));
  }

  @Post('resolve')
  @HttpCode(200)
  async resolve(@Body() body: SessionDto) {
    return { user: toUserResponse(await this.sessions.resolve(body.session)) };
  }

  @Post('end')
  @HttpCode(204)
  async end(@Body() body: SessionDto): Promise<void> {
    await this.sessions.end(body.session);
  }

  /**
   * The provider's verified ID token; an identity handed over as claims only through the test
   * seam, which production refuses to start with (libs/config).
   */
  private identityOf(body: CreateSessionDto): Promise<ExternalIdentity> {
    if (body.id_token !== undefined) {
      return this.verifier.verify({ idToken: body.id_token, userInfo: body.userinfo });
    }
    const { issuer, subject, claims } = body;
    if (this.config.testSessionsFromClaims && issuer && subject && claims) {
      return Promise.resolve({ issuer, subject, claims });
    }
    throw new DomainError(
      'validation_failed',
      "a session is opened from the identity provider's id_token only: claims are not taken on trust",
    );
  }
}
