import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import type { MaskingOptions, OperatorConfig, OperatorType } from '@platform/domain';
import type {
  MaskingOptionsMessage,
  MaskRequest,
  MaskResult,
  MaskStringRequest,
  MaskStringResult,
} from '@platform/grpc';
import { TokenAuthorizer } from '../authorization/token-authorizer';
import type { TokenRpc } from './rpc-authority';
import { TenantMasking } from '../masking/tenant-masking';

/**
 * `platform.masking.v1.MaskingService` (docs/masking.md): the caller's token needs
 * `masking.apply` in its own tenant, which chooses the hash key and the stored patterns (an
 * unbound app's is the platform's, ''); what the options get wrong is INVALID_ARGUMENT with the
 * reason.
 */
@Controller()
export class MaskingGrpcController {
  constructor(
    private readonly authorizer: TokenAuthorizer,
    private readonly masking: TenantMasking,
  ) {}

  @GrpcMethod('MaskingService', 'MaskString')
  async maskString({
    token = '',
    text = '',
    options,
  }: Partial<MaskStringRequest>): Promise<MaskStringResult> {
    const { text: masked, items } = this.masking.maskText(
      await this.tenantOf('MaskingService/MaskString', token),
      optionsOf(options),
      text,
    );
    return {
      text: masked,
      items: items.map((item) => ({
        entity_type: item.entityType,
        start: item.start,
        end: item.end,
        operator: item.operator,
      })),
    };
  }

  @GrpcMethod('MaskingService', 'Mask')
  async mask({
    token = '',
    json = '',
    field_paths = [],
    detect_in_values = false,
    options,
  }: Partial<MaskRequest>): Promise<MaskResult> {
    const tenant = await this.tenantOf('MaskingService/Mask', token);
    const result = this.masking.maskJson(tenant, optionsOf(options), json, field_paths, detect_in_values);
    return { json: result.json, masked_fields: result.maskedFields, masked_spans: result.maskedSpans };
  }

  /** The caller's own tenant, once `masking.apply` is allowed there. */
  private async tenantOf(rpc: Extract<TokenRpc, `MaskingService/${string}`>, token: string): Promise<string> {
    return (await this.authorizer.authorizeRpc(rpc, { token })).tenant;
  }
}

function optionsOf(message: MaskingOptionsMessage | null | undefined): MaskingOptions {
  if (!message) return {};
  const operators: Record<string, OperatorConfig> = {};
  for (const [entity, operator] of Object.entries(message.operators ?? {})) {
    operators[entity] = {
      type: operator.type as OperatorType,
      ...(operator.new_value !== '' && { newValue: operator.new_value }),
      ...(operator.masking_char !== '' && { maskingChar: operator.masking_char }),
      ...(operator.keep_last !== 0 && { keepLast: operator.keep_last }),
    };
  }
  return {
    entities: message.entities,
    operators,
    customPatterns: (message.custom_patterns ?? []).map((p) => ({ name: p.name, regex: p.regex })),
    region: message.region,
  };
}
