import type { DefinitionRules } from '../definitions/definition-registry';
import { validationFailed } from '../errors';
import { type CustomPattern, MaskingEngine } from './masking-engine';

/** A tenant's masking settings: the custom patterns every MaskString and Mask of it applies. */
export interface MaskingSettings {
  custom_patterns: CustomPattern[];
}

/** Checks patterns exactly as a request's are checked (length, safe-regex, empty match). */
const checker = new MaskingEngine(() => Buffer.alloc(32));

export function readMaskingSettings(document: unknown): MaskingSettings {
  const patterns = (document as { custom_patterns?: unknown } | null)?.custom_patterns;
  if (!Array.isArray(patterns)) throw validationFailed('custom_patterns must be an array of {name, regex}');
  const customPatterns = patterns.map((p: unknown, i) => {
    const { name, regex } = (typeof p === 'object' && p !== null ? p : {}) as Record<string, unknown>;
    if (typeof name !== 'string' || typeof regex !== 'string') {
      throw validationFailed(`custom_patterns[${i}] needs a name and a regex`);
    }
    return { name, regex };
  });
  checker.prepare('', { customPatterns });
  return { custom_patterns: customPatterns };
}

/** Each tenant's masking settings as one definition, named `settings` (docs/masking.md). */
export const MASKING_SETTINGS: DefinitionRules = {
  kind: 'masking',
  noun: 'masking settings',
  read: (document) => ({ ...readMaskingSettings(document) }),
  actions: { changed: 'masking.settings_changed', deleted: 'masking.settings_deleted' },
};

/** The one definition name of a tenant's masking settings. */
export const MASKING_SETTINGS_NAME = 'settings';
