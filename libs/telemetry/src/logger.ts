import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import { correlationId } from './correlation';
import { maskSecrets } from './masking';
import { activeTraceIds } from './tracing';

/**
 * Nest's console logger as every process uses it. Each line names the request it belongs to:
 * `[id] message` as text; as JSON (production) one object per line with `service`,
 * `correlation_id` and, when tracing is on, `trace_id` and `span_id`. Whatever looks like a
 * secret or a token is masked before it is written, stack traces included.
 */
export class CorrelatedLogger extends ConsoleLogger {
  constructor(
    format: 'json' | 'text',
    private readonly service?: string,
  ) {
    super(format === 'json' ? { json: true, colors: false } : {});
  }

  protected override getJsonLogObject(
    message: unknown,
    options: Parameters<ConsoleLogger['getJsonLogObject']>[1],
  ): ReturnType<ConsoleLogger['getJsonLogObject']> {
    const id = correlationId();
    const object = super.getJsonLogObject(typeof message === 'string' ? maskSecrets(message) : message, {
      ...options,
      ...(options.errorStack !== undefined && { errorStack: maskSecrets(String(options.errorStack)) }),
    });
    return Object.assign(
      object,
      this.service !== undefined && { service: this.service },
      id !== undefined && { correlation_id: id },
      activeTraceIds(),
    );
  }

  protected override stringifyMessage(message: unknown, logLevel: LogLevel): string {
    const text = maskSecrets(super.stringifyMessage(message, logLevel) as string);
    const id = correlationId();
    // A line that already names its request (the exception filter's) is not prefixed twice.
    const named = typeof message === 'string' && message.startsWith(`[${id}]`);
    return id === undefined || named ? text : `[${id}] ${text}`;
  }

  protected override printStackTrace(stack: string | undefined): void {
    if (stack) super.printStackTrace(maskSecrets(stack));
  }
}
