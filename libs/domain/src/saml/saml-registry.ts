import { auditActorOf, type AuditTrail } from '../audit/audit-trail';
import type { Clock } from '../clock';
import { notFound, validationFailed } from '../errors';
import { TENANT_PATTERN } from '../registry/application';
import type { Role } from '../sessions/identity-claims';
import type { Stores, Transactor } from '../storage';
import { type ActingPrincipal, assertReachesTenant } from '../users/user-administration';
import {
  DEFAULT_SAML_ATTRIBUTE_MAPPING,
  SAML_LIMITS,
  SAML_MAPPABLE_ROLES,
  type SamlAttributeMapping,
  type SamlIdentityProvider,
} from './saml-identity-provider';
import { parseIdentityProviderMetadata } from './saml-metadata';

/** What a tenant administrator sends: the IdP's metadata, and how its assertions map to users. */
export interface SamlIdentityProviderInput {
  metadataXml: string;
  /** Per field; a field left out keeps the defaults (`DEFAULT_SAML_ATTRIBUTE_MAPPING`). */
  attributeMapping?: Partial<SamlAttributeMapping>;
  roleMapping?: Record<string, string>;
  wantResponseSigned?: boolean;
  nameIdFormat?: string | null;
}

const NAME_ID_FORMATS = [
  'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
];

/**
 * A tenant's SAML identity provider (docs/saml.md, "Registering an IdP"): registered or replaced
 * from its metadata by an administrator of the tenant (`saml.write`, decided at the edge; here
 * the caller must still reach the tenant), each change audited (`saml.idp_registered`,
 * `saml.idp_updated`, `saml.idp_deleted`) in its transaction. A key rollover is a new upload of
 * the metadata listing both certificates, then one listing the new one.
 */
export class SamlRegistry {
  constructor(
    private readonly stores: Pick<Stores, 'samlIdentityProviders'>,
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
  ) {}

  async put(
    principal: ActingPrincipal,
    tenant: string,
    input: SamlIdentityProviderInput,
  ): Promise<{ idp: SamlIdentityProvider; created: boolean }> {
    checkTenant(principal, tenant);
    const metadata = parseIdentityProviderMetadata(input.metadataXml);
    const now = this.clock.now();
    const existing = await this.stores.samlIdentityProviders.findSamlIdentityProvider(tenant);
    const idp: SamlIdentityProvider = {
      tenant,
      ...metadata,
      attributeMapping: checkedMapping(input.attributeMapping),
      roleMapping: checkedRoles(input.roleMapping ?? {}),
      wantResponseSigned: input.wantResponseSigned ?? false,
      nameIdFormat: checkedNameIdFormat(input.nameIdFormat ?? null),
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    const outcome = await this.transactor.inTransaction(async (stores) => {
      const result = await stores.samlIdentityProviders.upsertSamlIdentityProvider(idp);
      await stores.audit.appendAuditRecords([
        this.audit(principal, result === 'created' ? 'saml.idp_registered' : 'saml.idp_updated', idp),
      ]);
      return result;
    });
    return { idp, created: outcome === 'created' };
  }

  async get(principal: ActingPrincipal, tenant: string): Promise<SamlIdentityProvider> {
    checkTenant(principal, tenant);
    const idp = await this.stores.samlIdentityProviders.findSamlIdentityProvider(tenant);
    if (!idp) throw notFound('SAML identity provider');
    return idp;
  }

  async delete(principal: ActingPrincipal, tenant: string): Promise<void> {
    const existing = await this.get(principal, tenant);
    await this.transactor.inTransaction(async (stores) => {
      if (!(await stores.samlIdentityProviders.deleteSamlIdentityProvider(tenant))) {
        throw notFound('SAML identity provider');
      }
      await stores.audit.appendAuditRecords([this.audit(principal, 'saml.idp_deleted', existing)]);
    });
  }

  private audit(principal: ActingPrincipal, action: string, idp: SamlIdentityProvider) {
    return this.trail.record({
      actor: auditActorOf(principal),
      action,
      target: idp.entityId,
      tenant: idp.tenant,
      attributes: {
        entity_id: idp.entityId,
        sso_url: idp.ssoUrl,
        certificates: idp.certificates.length,
        want_response_signed: idp.wantResponseSigned,
      },
    });
  }
}

function checkTenant(principal: ActingPrincipal, tenant: string): void {
  if (!TENANT_PATTERN.test(tenant)) throw validationFailed('tenant must be 1 to 64 of A-Z a-z 0-9 . _ -');
  assertReachesTenant(principal, tenant);
}

function checkedMapping(mapping: Partial<SamlAttributeMapping> | undefined): SamlAttributeMapping {
  const field = (name: keyof SamlAttributeMapping): string[] => {
    const names = mapping?.[name];
    if (names === undefined) return [...DEFAULT_SAML_ATTRIBUTE_MAPPING[name]];
    if (
      !Array.isArray(names) ||
      names.length === 0 ||
      names.length > SAML_LIMITS.attributeNames ||
      names.some((n) => typeof n !== 'string' || n === '' || n.length > SAML_LIMITS.attributeNameLength)
    ) {
      throw validationFailed(
        `attribute_mapping.${name} must list 1 to ${SAML_LIMITS.attributeNames} attribute names of 1 to ${SAML_LIMITS.attributeNameLength} characters`,
      );
    }
    return [...new Set(names)];
  };
  return { email: field('email'), name: field('name'), groups: field('groups') };
}

function checkedRoles(mapping: Record<string, string>): Record<string, Role> {
  const entries = Object.entries(mapping);
  if (entries.length > SAML_LIMITS.roleMappings) {
    throw validationFailed(`role_mapping holds at most ${SAML_LIMITS.roleMappings} groups`);
  }
  const checked: Record<string, Role> = {};
  for (const [group, role] of entries) {
    if (group === '' || group.length > SAML_LIMITS.groupLength) {
      throw validationFailed(`role_mapping: a group must be 1 to ${SAML_LIMITS.groupLength} characters`);
    }
    if (!(SAML_MAPPABLE_ROLES as readonly string[]).includes(role)) {
      throw validationFailed(
        `role_mapping: ${JSON.stringify(group)} maps to ${JSON.stringify(role)}; a tenant's IdP may give ${SAML_MAPPABLE_ROLES.join(', ')} only`,
      );
    }
    checked[group] = role as Role;
  }
  return checked;
}

function checkedNameIdFormat(format: string | null): string | null {
  if (format !== null && !NAME_ID_FORMATS.includes(format)) {
    throw validationFailed(`name_id_format must be one of ${NAME_ID_FORMATS.join(', ')}`);
  }
  return format;
}
