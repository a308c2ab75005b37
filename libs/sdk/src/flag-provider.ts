import type {
  ErrorCode,
  EvaluationContext,
  JsonValue,
  Provider,
  ResolutionDetails,
} from '@openfeature/server-sdk';
import type { ProtoGrpcType } from './generated/grpc/flags';
import type { EvaluateFlagResponse__Output } from './generated/grpc/platform/flags/v1/EvaluateFlagResponse';
import type { FlagServiceClient } from './generated/grpc/platform/flags/v1/FlagService';
import { sidecarClient, sidecarPackage } from './sidecar';
import type { TokenSource } from './token-source';

export interface PlatformFlagProviderOptions {
  /** The sidecar beside the app (`[::1]:50051` by default). */
  sidecarAddress?: string;
  /** The token each evaluation is made for: a ServiceTokenSource, or a forwarded user token's. */
  tokens: Pick<TokenSource, 'getToken'>;
  /**
   * Whose flags (default: the token's own tenant). An app bound to no tenant names one; the
   * token needs `flags.read` there.
   */
  tenant?: string;
}

type FlagType = 'boolean' | 'string' | 'number' | 'object';

/**
 * An OpenFeature provider on the sidecar's FlagService (docs/flags.md): register it with the
 * OpenFeature server SDK (`OpenFeature.setProviderAndWait(new PlatformFlagProvider({...}))`) and
 * evaluate flags with any OpenFeature client. The evaluation context travels as caller
 * attributes; the sidecar adds the token's tenant, user, app and roles and the tenant's plan in
 * force, which it never lets the context override (a flag targets a plan with `{"var": "plan"}`).
 */
export class PlatformFlagProvider implements Provider {
  readonly metadata = { name: 'platform-flags' } as const;
  readonly runsOn = 'server' as const;
  private readonly client: FlagServiceClient;

  constructor(private readonly options: PlatformFlagProviderOptions) {
    const { platform } = sidecarPackage<ProtoGrpcType>('platform/flags/v1/flags.proto');
    this.client = sidecarClient(platform.flags.v1.FlagService, options.sidecarAddress);
  }

  resolveBooleanEvaluation(flagKey: string, defaultValue: boolean, context: EvaluationContext) {
    return this.evaluate<boolean>('boolean', flagKey, { bool_value: defaultValue }, context);
  }

  resolveStringEvaluation(flagKey: string, defaultValue: string, context: EvaluationContext) {
    return this.evaluate<string>('string', flagKey, { string_value: defaultValue }, context);
  }

  resolveNumberEvaluation(flagKey: string, defaultValue: number, context: EvaluationContext) {
    return this.evaluate<number>('number', flagKey, { number_value: defaultValue }, context);
  }

  resolveObjectEvaluation<T extends JsonValue>(flagKey: string, defaultValue: T, context: EvaluationContext) {
    return this.evaluate<T>('object', flagKey, { object_json: JSON.stringify(defaultValue) }, context);
  }

  async onClose(): Promise<void> {
    this.client.close();
  }

  private async evaluate<T>(
    type: FlagType,
    flagKey: string,
    defaultValue: object,
    context: EvaluationContext,
  ): Promise<ResolutionDetails<T>> {
    const request = {
      token: await this.options.tokens.getToken(),
      flag_key: flagKey,
      type,
      default_value: defaultValue,
      context_json: JSON.stringify(context),
      tenant: this.options.tenant ?? '',
    };
    const answer = await new Promise<EvaluateFlagResponse__Output>((resolve, reject) =>
      this.client.EvaluateFlag(request, (error, response) => (error ? reject(error) : resolve(response!))),
    );
    const value = answer.value;
    return {
      value: (type === 'object' ? JSON.parse(value?.object_json ?? 'null') : value?.[fieldOf(type)]) as T,
      ...(answer.variant !== '' && { variant: answer.variant }),
      reason: answer.reason,
      ...(answer.error_code !== '' && {
        errorCode: answer.error_code as ErrorCode,
        errorMessage: answer.error_message,
      }),
      flagMetadata: JSON.parse(answer.flag_metadata_json || '{}') as Record<
        string,
        string | number | boolean
      >,
    };
  }
}

function fieldOf(type: Exclude<FlagType, 'object'>) {
  return ({ boolean: 'bool_value', string: 'string_value', number: 'number_value' } as const)[type];
}
