import { type ServerErrorResponse, status, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { findUnstorableText } from '@platform/domain';

type Call = {
  request?: unknown;
  write?: unknown;
  emit(event: 'error', error: ServerErrorResponse): unknown;
};
type Callback = (error: ServerErrorResponse) => void;

/**
 * Request fields that carry text through, never stored nor looked up: a NUL is allowed there
 * (a lone surrogate is not). By `Service/Method`, as RPC_AUTHORITY names them.
 */
const OPAQUE_FIELDS: Record<string, readonly string[]> = { 'MaskingService/MaskString': ['text'] };

/**
 * Every handler of `service` behind the platform's one rule on text (libs/domain
 * `storable-text.ts`): a request whose string fields hold a NUL or a lone surrogate ends
 * INVALID_ARGUMENT, naming the field, before any guard or handler runs. JSON carried in a string
 * (`payload_json`, `attributes_json`) holds its NULs escaped: the control plane's HTTP rule
 * judges them once parsed.
 */
export function storableRequests(
  implementation: UntypedServiceImplementation,
  service: string,
): UntypedServiceImplementation {
  return Object.fromEntries(
    Object.entries(implementation).map(([method, handler]) => {
      const invoke = handler as (call: Call, callback?: Callback) => unknown;
      const opaque = OPAQUE_FIELDS[`${service}/${method}`] ?? [];
      const checked = (call: Call, callback?: Callback) => {
        const refusal = refusalOf(call, opaque);
        if (refusal === undefined) return invoke(call, callback);
        // A server stream ends with the status through its 'error' event, a unary call through its callback.
        return call.write ? call.emit('error', refusal) : callback?.(refusal);
      };
      // The arity stays: `measuredHandlers` tells unary handlers (call, callback) by it.
      Object.defineProperty(checked, 'length', { value: invoke.length });
      return [method, checked];
    }),
  ) as UntypedServiceImplementation;
}

function refusalOf(call: Call, opaque: readonly string[]): ServerErrorResponse | undefined {
  const found =
    call.request === undefined
      ? undefined
      : findUnstorableText(call.request, '', (field) => opaque.includes(field));
  if (found === undefined) return undefined;
  const details = `${found.where || 'the request'} ${found.fault}`;
  return Object.assign(new Error(details), { code: status.INVALID_ARGUMENT, details });
}
