import { DEFAULT_ROLES, type ExternalUser, type Role } from '../sessions/identity-claims';
import type { VerifiedAssertion } from './saml-assertion-validator';
import { SAML_MAPPABLE_ROLES, samlUserIssuer, type SamlIdentityProvider } from './saml-identity-provider';

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/**
 * A verified assertion as the user it names (docs/saml.md, "Attribute mapping"): the subject is
 * the NameID under the tenant's IdP (`samlUserIssuer`), the tenant is always the registration's
 * (never an attribute's), `email` and `name` are the first value of the first mapped attribute
 * present (the email falls back to an email-format NameID), and the roles are those the
 * registration's `role_mapping` gives the `groups` values (never `global_admin`). No groups
 * attribute at all leaves a known user's roles as an admin set them, as the OIDC login does; a
 * groups attribute mapping to nothing gives `user`.
 */
export function userFromAssertion(idp: SamlIdentityProvider, assertion: VerifiedAssertion): ExternalUser {
  const first = (names: string[]) => names.map((name) => assertion.attributes[name]?.[0]).find(isText);
  const email =
    first(idp.attributeMapping.email) ?? (assertion.nameIdFormat === EMAIL_FORMAT ? assertion.nameId : null);
  const groupAttributes = idp.attributeMapping.groups.filter(
    (name) => assertion.attributes[name] !== undefined,
  );
  const groups = groupAttributes.flatMap((name) => assertion.attributes[name]);
  const roles = [
    ...new Set(
      groups
        .map((group) => (Object.hasOwn(idp.roleMapping, group) ? idp.roleMapping[group] : undefined))
        .filter((role): role is Role => role !== undefined && SAML_MAPPABLE_ROLES.includes(role)),
    ),
  ];
  return {
    issuer: samlUserIssuer(idp.tenant, idp.entityId),
    subject: assertion.nameId,
    email: email?.trim() || null,
    name: first(idp.attributeMapping.name)?.trim() || null,
    tenant: idp.tenant,
    roles: roles.length > 0 ? roles : [...DEFAULT_ROLES],
    keepStoredRoles: groupAttributes.length === 0,
  };
}

const isText = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';
