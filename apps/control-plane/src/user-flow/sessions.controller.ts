import { Body, Controller, Header, Inject } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import { CreateSessionDto, SESSION_OPERATIONS, SessionDto } from '@platform/contract';
import { DomainError, SessionService, type ExternalIdentity } from '@platform/domain';
import { toSessionResponse, toUserResponse } from './dto';
import { IdentityTokenVerifier } from './identity-token-verifier';
import { Implements } from '../platform/implements';
import { PLATFORM_CONFIG } from '../platform/tokens';
import { RevocationFeed } from '../platform/revocation-feed';

/** Browser sessions, opened by the backend once the identity provider vouched for the user. */
@Controller()
export class SessionsController {
  constructor(
    private readonly sessions: SessionService,
    private readonly verifier: IdentityTokenVerifier,
    private readonly feed: RevocationFeed,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  @Implements(SESSION_OPERATIONS.create)
  @Header('Cache-Control', 'no-store')
  async create(@Body() body: CreateSessionDto) {
    return toSessionResponse(await this.sessions.create(await this.identityOf(body)));
  }

  @Implements(SESSION_OPERATIONS.resolve)
  async resolve(@Body() body: SessionDto) {
    const { user, stamp } = await this.sessions.resolveSession(body.session);
    return { user: toUserResponse(user), auth_time: stamp.authTime.toISOString() };
  }

  /** The grants it revoked reach the sidecars' deny-lists at once (the revocation feed). */
  @Implements(SESSION_OPERATIONS.end)
  async end(@Body() body: SessionDto): Promise<void> {
    const { revokedGrants } = await this.sessions.end(body.session);
    if (revokedGrants > 0) this.feed.wake();
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
