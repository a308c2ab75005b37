import { hkdfSync } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type CustomPattern,
  DomainError,
  MaskingEngine,
  type MaskingOptions,
  MASKING_SETTINGS_NAME,
} from '@platform/domain';
import { DefinitionSync } from '../definitions/definition-sync';
import { invalidArgument } from '../authorization/authorization.error';
import { SIDECAR_CONFIG, type SidecarConfig } from '../config/sidecar-config';

/** Fixed HKDF salt: these keys only ever key the masking service's `hash` operator. */
const SALT = 'oauth-platform/sidecar/masking-hash/v1';

/**
 * The masking engine with a hash key per tenant, derived from INTERNAL_TOKEN with HKDF-SHA256:
 * every sidecar of every replica hashes a value of a tenant the same way, no two tenants alike,
 * and no key is stored anywhere (rotating INTERNAL_TOKEN changes every hash; docs/masking.md).
 * The tenant's stored custom patterns (its masking settings, followed like every definition) join
 * each request's. What the masking rules refuse (bad options, too large an input) is
 * INVALID_ARGUMENT.
 */
@Injectable()
export class TenantMasking {
  private readonly engine: MaskingEngine;

  constructor(
    @Inject(SIDECAR_CONFIG) config: SidecarConfig,
    private readonly definitions: DefinitionSync,
  ) {
    this.engine = new MaskingEngine((tenant) =>
      Buffer.from(hkdfSync('sha256', config.internalToken, SALT, `tenant:${tenant}`, 32)),
    );
  }

  maskText(tenant: string, options: MaskingOptions, text: string) {
    return invalidInput(() => this.engine.maskText(this.prepare(tenant, options), text));
  }

  maskJson(tenant: string, options: MaskingOptions, json: string, fieldPaths: string[], detect: boolean) {
    return invalidInput(() => this.engine.maskJson(this.prepare(tenant, options), json, fieldPaths, detect));
  }

  /** The request's options with the tenant's stored custom patterns (a request's own win by name). */
  private prepare(tenant: string, options: MaskingOptions) {
    const settings = this.definitions.find('masking', tenant, MASKING_SETTINGS_NAME)?.document;
    const stored = (settings?.custom_patterns ?? []) as CustomPattern[];
    const own = options.customPatterns ?? [];
    const customPatterns = [...stored.filter((p) => !own.some((o) => o.name === p.name)), ...own];
    return this.engine.prepare(tenant, { ...options, customPatterns });
  }
}

function invalidInput<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof DomainError && error.code === 'validation_failed')
      throw invalidArgument(error.message);
    throw error;
  }
}
