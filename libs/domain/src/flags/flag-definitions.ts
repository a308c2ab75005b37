import { FlagdCore, MemoryStorage } from '@openfeature/flagd-core';
import type { DefinitionRules } from '../definitions/definition-registry';
import { validationFailed } from '../errors';

/** flagd-core logs what it tolerates; the platform reports through its own errors instead. */
const QUIET = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
};

/**
 * The document, checked against flagd's own schemas (flags, variants, targeting JsonLogic with
 * `fractional`, `sem_ver`, `starts_with`): what is wrong is `validation_failed` with where.
 */
export function readFlagDefinitions(document: unknown): Record<string, unknown> {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw validationFailed('the flag definitions must be a flagd document: {"flags": {...}}');
  }
  try {
    new MemoryStorage(QUIET).setConfigurations(JSON.stringify(document), true);
  } catch (error) {
    throw validationFailed(describeSchemaError((error as Error).message));
  }
  return document as Record<string, unknown>;
}

/** An evaluator of one tenant's flags (flagd-core, evaluating locally). */
export function flagEvaluator(document: Record<string, unknown>): FlagdCore {
  const core = new FlagdCore(undefined, QUIET);
  core.setConfigurations(JSON.stringify(document));
  return core;
}

/** flagd-core's message is the ajv error list as JSON: the first error, as a path and a reason. */
function describeSchemaError(message: string): string {
  const json = message.slice(message.indexOf('['));
  try {
    const [first] = JSON.parse(json) as Array<{ instancePath: string; message: string; params?: object }>;
    return `not a valid flagd flag definition: ${first.instancePath || '/'} ${first.message}${
      first.params ? ` ${JSON.stringify(first.params)}` : ''
    }`;
  } catch {
    return `not a valid flagd flag definition: ${message}`;
  }
}

/** Each tenant's flags as one definition, named `flags` (docs/flags.md). */
export const FLAG_DEFINITIONS: DefinitionRules = {
  kind: 'flags',
  noun: 'flag definitions',
  read: readFlagDefinitions,
  actions: { changed: 'flags.changed', deleted: 'flags.deleted' },
};

/** The one definition name of a tenant's flags. */
export const FLAG_SET = 'flags';
