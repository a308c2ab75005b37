import { SAML_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/** A tenant's SAML identity provider (docs/saml.md): relayed to the control plane. */
export const SamlIdentityProviderController = relayController(
  'SamlIdentityProviderController',
  SAML_OPERATIONS,
);
