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
import { principalOfClaims } from '../authorization/principals';
import { TenantMasking } from '../masking/tenant-masking';
import { TokenClaimsReader } from './token-claims.reader';

/**
 * `platform.masking.v1.MaskingService` (docs/masking.md): the caller's token is validated as
 * ValidateToken does, and its tenant chooses the hash key; what the options get wrong is
 * INVALID_ARGUMENT with the reason.
 */
@Controller()
export class MaskingGrpcController {
  constructor(
    private readonly tokens: TokenClaimsReader,
    private readonly masking: TenantMasking,
  ) {}

  @GrpcMethod('MaskingService', 'MaskString')
  async maskString({
    token = '',
    text = '',
    options,
  }: Partial<MaskStringRequest>): Promise<MaskStringResult> {
    const { text: masked, items } = this.masking.maskText(
      await this.tenantOf(token),
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
    const tenant = await this.tenantOf(token);
    const result = this.masking.maskJson(tenant, optionsOf(options), json, field_paths, detect_in_values);
    return { json: result.json, masked_fields: result.maskedFields, masked_spans: result.maskedSpans };
  }

  /** A user's tenant; a service token acts for the platform, whose tenant is ''. */
  private async tenantOf(token: string): Promise<string> {
    const principal = principalOfClaims(await this.tokens.read(token));
    return principal.kind === 'user' ? principal.tenant : '';
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
