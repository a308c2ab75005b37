import { RATE_LIMIT_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/** The rules of the sidecar's rate limit service (docs/rate-limits.md): relayed to the control plane. */
export const RateLimitRulesController = relayController('RateLimitRulesController', RATE_LIMIT_OPERATIONS);
