import { MASKING_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/** A tenant's masking settings (docs/masking.md): relayed to the control plane. */
export const MaskingSettingsController = relayController('MaskingSettingsController', MASKING_OPERATIONS);
