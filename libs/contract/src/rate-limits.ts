import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { TimestampProperty } from './fields';

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
