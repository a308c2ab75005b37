import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import { correlationId } from './correlation';

/**
 * Nest's console logger with the correlation id of the request being handled on every line:
 * `[id] message` as text, a `correlation_id` member as JSON (production). One JSON object per line.
 */
export class CorrelatedLogger extends ConsoleLogger {
  constructor(format: 'json' | 'text') {
    super(format === 'json' ? { json: true, colors: false } : {});
  }

  protected override getJsonLogObject(
    message: unknown,
    options: Parameters<ConsoleLogger['getJsonLogObject']>[1],
  ): ReturnType<ConsoleLogger['getJsonLogObject']> {
    const id = correlationId();
    const object = super.getJsonLogObject(message, options);
    return id === undefined ? object : Object.assign(object, { correlation_id: id });
  }

  protected override stringifyMessage(message: unknown, logLevel: LogLevel): string {
    const text = super.stringifyMessage(message, logLevel) as string;
    const id = correlationId();
    // A line that already names its request (the exception filter's) is not prefixed twice.
    const named = typeof message === 'string' && message.startsWith(`[${id}]`);
    return id === undefined || named ? text : `[${id}] ${text}`;
  }
}
