import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { TimestampProperty } from './fields';
import { operation } from './operation-table';

const DESCRIPTORS = {
  type: 'array',
  items: { type: 'object', additionalProperties: true },
  description:
    'Envoy rate limit service descriptors: `{key, value?, rate_limit?: {unit: second|minute|hour|day, requests_per_unit, burst?}, descriptors?}`, nested at most 8 deep, at most 1,000 in all. A request descriptor walks them: each entry picks the rule of its key and value, else of its key alone; the deepest rule walked limits it.',
  example: [
    { key: 'remote_address', rate_limit: { unit: 'minute', requests_per_unit: 60 } },
    {
      key: 'path',
      value: '/login',
      descriptors: [{ key: 'user', rate_limit: { unit: 'second', requests_per_unit: 1, burst: 5 } }],
    },
  ],
} as const;

/** Not validated here: the domain reads the rules, so a bad one is its 400 with the path to it. */
@ApiSchema({ name: 'RateLimitRulesUpdate', description: 'The complete rules of one domain of a tenant.' })
export class RateLimitRulesUpdateDto {
  @ApiProperty(DESCRIPTORS)
  @Allow()
  descriptors: unknown;
}

@ApiSchema({
  name: 'RateLimitRules',
  description: 'The rules of one domain, as every sidecar applies them (within a second of a change).',
})
export class RateLimitRulesDto {
  @ApiProperty() tenant: string;
  @ApiProperty({ description: 'The domain a CheckRateLimit call names.' }) domain: string;
  @ApiProperty(DESCRIPTORS) descriptors: object[];
  @ApiProperty({ description: '1 for the first write, one more for each.' }) version: number;
  @TimestampProperty() updated_at: string;
}

const RULES_PATH = 'api/v1/tenants/:tenant/rate-limits';
const DOMAIN_PATH = `${RULES_PATH}/:domain`;
const NO_RULES = 'The tenant has no rules for that domain.';
const ADMIN_OF_TENANT = { kind: 'admin', tenantParam: 'tenant' } as const;
const TENANT = { tenant: { example: 'acme' } };
const DOMAIN = { ...TENANT, domain: { example: 'checkout' } };

/**
 * The rules of the sidecar's rate limit service (docs/rate-limits.md), per tenant and domain,
 * admin Bearer token; same paths at the edge and the control plane. A change reaches every
 * sidecar within a second.
 */
export const RATE_LIMIT_OPERATIONS = {
  list: operation({
    id: 'listRateLimitRules',
    tag: 'Rate limits',
    summary: 'The rate limit rules of a tenant',
    method: 'GET',
    path: RULES_PATH,
    caller: ADMIN_OF_TENANT,
    params: TENANT,
    answer: {
      status: 200,
      model: [RateLimitRulesDto],
      description: 'The rules of every domain of the tenant.',
    },
  }),
  get: operation({
    id: 'getRateLimitRules',
    tag: 'Rate limits',
    summary: 'The rate limit rules of one domain',
    method: 'GET',
    path: DOMAIN_PATH,
    caller: ADMIN_OF_TENANT,
    params: DOMAIN,
    answer: { status: 200, model: RateLimitRulesDto, description: 'The rules.' },
    refuses: { 404: NO_RULES },
  }),
  put: operation({
    id: 'putRateLimitRules',
    tag: 'Rate limits',
    summary: 'Set the rate limit rules of one domain',
    description:
      'Replaces the rules (a new version); every sidecar applies them within a second, counters of unchanged limits carry on. A rule the service cannot read is **400** with the path to it. Audited (`ratelimit.rules_changed`).',
    method: 'PUT',
    path: DOMAIN_PATH,
    caller: ADMIN_OF_TENANT,
    params: DOMAIN,
    body: { type: 'json', model: RateLimitRulesUpdateDto },
    answer: { status: 200, model: RateLimitRulesDto, description: 'The rules as stored.' },
  }),
  delete: operation({
    id: 'deleteRateLimitRules',
    tag: 'Rate limits',
    summary: 'Remove the rate limit rules of one domain',
    description: 'The domain is no longer limited, at every sidecar within a second. Audited.',
    method: 'DELETE',
    path: DOMAIN_PATH,
    caller: ADMIN_OF_TENANT,
    params: DOMAIN,
    answer: { status: 204, description: 'Removed.' },
    refuses: { 404: NO_RULES },
  }),
};
