import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import type { EvaluateFlagAnswer, EvaluateFlagRequest, FlagValueMessage } from '@platform/grpc';
import { invalidArgument } from '../authorization/authorization.error';
import { TokenAuthorizer } from '../authorization/token-authorizer';
import { SidecarError } from '../errors';
import { TenantFlags } from '../flags/tenant-flags';
import { TenantPlans } from '../plans/tenant-plans';

type FlagType = 'boolean' | 'string' | 'number' | 'object';
type Value = boolean | string | number | Record<string, unknown>;

/** What flagd-core resolves, in OpenFeature's terms. */
interface Resolution {
  value: unknown;
  variant?: string;
  reason?: string;
  errorCode?: string;
  errorMessage?: string;
  flagMetadata?: object;
}

/** Which oneof field of FlagValue carries each type. */
const FIELDS = {
  boolean: 'bool_value',
  string: 'string_value',
  number: 'number_value',
  object: 'object_json',
} as const;

/**
 * `platform.flags.v1.FlagService` (docs/flags.md): flagd-core evaluates a tenant's flags here
 * (the one the request names, else the caller's own; `flags.read` there), with an evaluation
 * context made of the caller's attributes, the token's claims and the tenant's plan in force.
 */
@Controller()
export class FlagGrpcController {
  constructor(
    private readonly authorizer: TokenAuthorizer,
    private readonly flags: TenantFlags,
    private readonly plans: TenantPlans,
  ) {}

  @GrpcMethod('FlagService', 'EvaluateFlag')
  async evaluate({
    token = '',
    flag_key: flagKey = '',
    type = '',
    default_value: defaultMessage,
    context_json: contextJson = '',
    tenant: named = '',
  }: Partial<EvaluateFlagRequest>): Promise<EvaluateFlagAnswer> {
    const { claims, principal, tenant } = await this.authorizer.authorizeRpc('FlagService/EvaluateFlag', {
      token,
      tenant: named,
    });
    if (flagKey === '') throw invalidArgument('flag_key is required');
    if (!(type in FIELDS)) throw invalidArgument('type must be boolean, string, number or object');
    const defaultValue = valueOf(type as FlagType, defaultMessage);
    // What the platform says of the caller is never the caller's to say: a `plan` it sends is
    // dropped when the tenant has none in force.
    const { plan: _claimed, ...attributes } = callerAttributes(contextJson);
    if (!this.flags.loaded) throw new SidecarError('not_ready', 'flag definitions are loading');
    const { plan } = this.plans.entitlements(tenant);
    const context = {
      ...attributes,
      targetingKey: claims.sub,
      tenant,
      user: principal.kind === 'user' ? claims.sub : '',
      app: claims.client_id,
      roles: [...(claims.roles ?? [])],
      ...(plan !== null && { plan }),
    };
    const evaluator = this.flags.of(tenant);
    const resolution: Resolution = evaluator
      ? evaluator.resolve(type as FlagType, flagKey, defaultValue as never, context)
      : {
          value: defaultValue,
          reason: 'ERROR',
          errorCode: 'FLAG_NOT_FOUND',
          errorMessage: `tenant ${tenant} has no flags`,
          flagMetadata: {},
        };
    return {
      value: messageOf(type as FlagType, resolution.value as Value),
      variant: resolution.variant ?? '',
      reason: resolution.reason ?? '',
      error_code: resolution.errorCode ?? '',
      error_message: resolution.errorMessage ?? '',
      flag_metadata_json: JSON.stringify(resolution.flagMetadata ?? {}),
    };
  }
}

function valueOf(type: FlagType, message: FlagValueMessage | null | undefined): Value {
  const field = FIELDS[type];
  if (!message || message.value !== field)
    throw invalidArgument(`default_value must be a ${type} (${field})`);
  if (type !== 'object') return message[field] as Value;
  try {
    const parsed: unknown = JSON.parse(message.object_json ?? '');
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // refused below
  }
  throw invalidArgument('default_value.object_json must be a JSON object');
}

function messageOf(type: FlagType, value: Value) {
  return type === 'object' ? { object_json: JSON.stringify(value) } : { [FIELDS[type]]: value };
}

function callerAttributes(json: string): Record<string, unknown> {
  if (json === '') return {};
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // refused below
  }
  throw invalidArgument('context_json must be a JSON object');
}
