import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ApplicationRegistry, AuditCheckpoints, BackgroundLoop, SigningKeyRing } from '@platform/domain';
import type { PlatformConfig } from '@platform/config';
import { SigningKeyFollower } from './signing-key-follower';
import { PLATFORM_CONFIG } from './tokens';

const KEY_RELOAD_MS = 30_000;
/** How often the signing key's age is checked against SIGNING_KEY_ROTATION_DAYS. */
const KEY_AGE_CHECK_MS = 60 * 60_000;
/** The audit log is checkpointed at start and this often when it has grown (docs/audit.md). */
export const AUDIT_CHECKPOINT_MS = 60_000;

/**
 * First-start work (signing key, admin app, an audit checkpoint) and the periodic chores:
 * re-reading keys that another replica may have rotated (a backstop: SigningKeyFollower reloads
 * them at once), checkpointing the audit log, rotating the signing key when it is older than
 * SIGNING_KEY_ROTATION_DAYS. Every replica runs them; each is safe to run twice. Pruning is the
 * retention sweep's (RetentionSweepLoop).
 */
@Injectable()
export class BootstrapService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(BootstrapService.name);
  private readonly loops: BackgroundLoop[] = [];

  constructor(
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    private readonly keys: SigningKeyRing,
    private readonly registry: ApplicationRegistry,
    private readonly checkpoints: AuditCheckpoints,
    private readonly keyFollower: SigningKeyFollower,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.keyFollower.follow();
    await this.keys.load();
    const generated = await this.registry.ensureAdminApp(
      this.config.adminClientId,
      this.config.adminClientSecret,
    );
    if (generated !== undefined) this.writeAdminCredentials(generated);
    await this.reportScopeRuleBreaches();
    await this.reportRedirectUriRuleBreaches();
    this.every(KEY_RELOAD_MS, () => this.keys.load());
    this.every(AUDIT_CHECKPOINT_MS, () => this.checkpoints.checkpoint(), { now: true });
    const rotationDays = this.config.signingKeyRotationDays;
    if (rotationDays > 0) {
      this.every(KEY_AGE_CHECK_MS, () => this.keys.rotateIfOlderThan(rotationDays * 86_400), { now: true });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.loops.map((loop) => loop.stop()));
  }

  /** Apps registered before the 1.0 scope rules keep their rows; what they break is never granted. */
  private async reportScopeRuleBreaches(): Promise<void> {
    for (const { app, neverGranted } of await this.registry.scopeRuleBreaches()) {
      this.logger.warn(
        `app ${app.clientId} (${app.appType}${app.tenant === null ? '' : `, bound to ${app.tenant}`}) declares ` +
          `${neverGranted.join(' ')}, which it may no longer hold: never granted (docs/authorization.md, "Upgrading to 1.0")`,
      );
    }
  }

  /**
   * Apps registered before the redirect URI rules keep their rows; a URI that breaks them is
   * refused at authorize. Named by its place: the URI itself may carry a password.
   */
  private async reportRedirectUriRuleBreaches(): Promise<void> {
    for (const { app, problems } of await this.registry.redirectUriRuleBreaches()) {
      this.logger.warn(
        `app ${app.clientId} (${app.appType}) has redirect URIs that break the redirect URI rules and are ` +
          `refused at authorize: ${problems.join('; ')} (docs/decisions.md, "Redirect URIs")`,
      );
    }
  }

  /** Written once, readable by the owner only; the secret itself is never logged. */
  private writeAdminCredentials(secret: string): void {
    mkdirSync(this.config.dataDir, { recursive: true, mode: 0o700 });
    const file = join(this.config.dataDir, 'admin-credentials.json');
    const body = {
      client_id: this.config.adminClientId,
      client_secret: secret,
      token_endpoint: `${this.config.issuer}/v1/oauth/token`,
    };
    writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    this.logger.log(`admin credentials for client ${this.config.adminClientId} written to ${file}`);
  }

  private every(ms: number, chore: () => Promise<unknown>, options: { now?: boolean } = {}): void {
    const loop = new BackgroundLoop({
      what: 'periodic task',
      run: chore,
      everyMs: ms,
      immediate: options.now,
      logger: this.logger,
      describe: (error) => error.name,
    });
    loop.start();
    this.loops.push(loop);
  }
}
