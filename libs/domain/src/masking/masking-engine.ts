import { createHmac } from 'node:crypto';
import safeRegex from 'safe-regex2';
import { validationFailed } from '../errors';
import { BUILT_IN_DETECTORS, BUILT_IN_ENTITY_TYPES, type Detector, isRegion, type Span } from './detectors';

/** Presidio's anonymizer operators. */
export const OPERATOR_TYPES = ['redact', 'replace', 'mask', 'hash'] as const;
export type OperatorType = (typeof OPERATOR_TYPES)[number];

export interface OperatorConfig {
  type: OperatorType;
  /** replace: the text put in (default `<ENTITY_TYPE>`). */
  newValue?: string;
  /** mask: the character (default `*`). */
  maskingChar?: string;
  /** mask: how many characters to keep at the end (a card's last 4). */
  keepLast?: number;
}

export interface CustomPattern {
  /** The entity type it detects, upper case (`EMPLOYEE_ID`). */
  name: string;
  regex: string;
}

/** What a caller asks for; everything optional. */
export interface MaskingOptions {
  /** Entity types to look for; none: every built-in one and every custom pattern. */
  entities?: string[];
  /** By entity type, and `DEFAULT` for the others (default: replace). `FIELD` for field paths. */
  operators?: Record<string, OperatorConfig>;
  customPatterns?: CustomPattern[];
  /** Region of phone numbers written without `+` (default US). */
  region?: string;
}

export interface MaskedItem {
  entityType: string;
  /** Where the replacement is in the masked text. */
  start: number;
  end: number;
  operator: OperatorType;
}

/** Limits that keep one call bounded (docs/masking.md). */
export const MASKING_LIMITS = {
  textBytes: 1024 * 1024,
  customPatterns: 20,
  patternLength: 256,
};

const ENTITY_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;
const DEFAULT_OPERATOR: OperatorConfig = { type: 'replace' };

/** Options checked once, ready to mask any number of texts. */
export interface PreparedMasking {
  detectors: Detector[];
  operators: Record<string, OperatorConfig>;
  region: string;
  /** The tenant's hash key (`hash` operator): equal values hash equally within a tenant only. */
  hashKey: Buffer;
}

/**
 * The masking service's rules (docs/masking.md): detectors find entities in text, each confirmed
 * by its own check; the operator of its type replaces it. Custom patterns are guarded against
 * catastrophic backtracking (safe-regex2's star-height check and a length cap) before they run.
 */
export class MaskingEngine {
  constructor(private readonly hashKeyOf: (tenant: string) => Buffer) {}

  prepare(tenant: string, options: MaskingOptions): PreparedMasking {
    const custom = (options.customPatterns ?? []).map(customDetector);
    if (custom.length > MASKING_LIMITS.customPatterns) {
      throw validationFailed(`at most ${MASKING_LIMITS.customPatterns} custom patterns`);
    }
    const known = new Set([...BUILT_IN_ENTITY_TYPES, ...custom.map((d) => d.entityType)]);
    const wanted = options.entities?.length ? options.entities : [...known];
    const unknown = wanted.filter((entity) => !known.has(entity));
    if (unknown.length > 0) throw validationFailed(`unknown entity types: ${unknown.join(', ')}`);
    const operators = { ...options.operators };
    for (const [entity, operator] of Object.entries(operators)) checkOperator(entity, operator);
    const region = options.region || 'US';
    if (!isRegion(region))
      throw validationFailed(`region ${region} is not an ISO 3166 country libphonenumber knows`);
    return {
      detectors: [...BUILT_IN_DETECTORS, ...custom].filter((d) => wanted.includes(d.entityType)),
      operators,
      region,
      hashKey: this.hashKeyOf(tenant),
    };
  }

  /** `text` with every entity found replaced, and where each replacement is. */
  maskText(prepared: PreparedMasking, text: string): { text: string; items: MaskedItem[] } {
    if (Buffer.byteLength(text) > MASKING_LIMITS.textBytes) {
      throw validationFailed(`text is over ${MASKING_LIMITS.textBytes} bytes`);
    }
    const spans = withoutOverlaps(
      prepared.detectors.flatMap((d) => d.find(text, { region: prepared.region })),
    );
    let masked = '';
    let from = 0;
    const items: MaskedItem[] = [];
    for (const span of spans) {
      masked += text.slice(from, span.start);
      const operator = prepared.operators[span.entityType] ?? prepared.operators.DEFAULT ?? DEFAULT_OPERATOR;
      const replacement = apply(
        operator,
        span.entityType,
        text.slice(span.start, span.end),
        prepared.hashKey,
      );
      items.push({
        entityType: span.entityType,
        start: masked.length,
        end: masked.length + replacement.length,
        operator: operator.type,
      });
      masked += replacement;
      from = span.end;
    }
    return { text: masked + text.slice(from), items };
  }

  /**
   * A JSON document with the values at `fieldPaths` masked whole (operator `FIELD`, else
   * `DEFAULT`; `a.b`, `items[*].card`, `*` for any member), and, with `detect`, every entity found
   * in the other string values.
   */
  maskJson(
    prepared: PreparedMasking,
    json: string,
    fieldPaths: string[],
    detect: boolean,
  ): { json: string; maskedFields: number; maskedSpans: number } {
    if (Buffer.byteLength(json) > MASKING_LIMITS.textBytes) {
      throw validationFailed(`json is over ${MASKING_LIMITS.textBytes} bytes`);
    }
    let document: unknown;
    try {
      document = JSON.parse(json);
    } catch {
      throw validationFailed('json is not a JSON document');
    }
    const paths = fieldPaths.map(parsePath);
    const counts = { maskedFields: 0, maskedSpans: 0 };
    const operator = prepared.operators.FIELD ?? prepared.operators.DEFAULT ?? DEFAULT_OPERATOR;
    const walk = (value: unknown, at: string[]): unknown => {
      if (paths.some((path) => matches(path, at))) {
        counts.maskedFields += 1;
        return maskWhole(value, (leaf) => apply(operator, 'FIELD', leaf, prepared.hashKey));
      }
      if (typeof value === 'string' && detect) {
        const { text, items } = this.maskText(prepared, value);
        counts.maskedSpans += items.length;
        return text;
      }
      if (Array.isArray(value)) return value.map((item, i) => walk(item, [...at, String(i)]));
      if (typeof value === 'object' && value !== null) {
        return Object.fromEntries(
          Object.entries(value).map(([key, item]) => [key, walk(item, [...at, key])]),
        );
      }
      return value;
    };
    return { json: JSON.stringify(walk(document, [])), ...counts };
  }
}

function customDetector({ name, regex }: CustomPattern): Detector {
  if (!ENTITY_NAME.test(name))
    throw validationFailed(`custom pattern name ${name} must be upper case, A-Z 0-9 _`);
  if (regex.length === 0 || regex.length > MASKING_LIMITS.patternLength) {
    throw validationFailed(`custom pattern ${name}: 1 to ${MASKING_LIMITS.patternLength} characters`);
  }
  let pattern: RegExp;
  try {
    pattern = new RegExp(regex, 'gu');
  } catch (error) {
    throw validationFailed(`custom pattern ${name} is not a regular expression: ${(error as Error).message}`);
  }
  if (!safeRegex(pattern)) throw validationFailed(`custom pattern ${name} may backtrack catastrophically`);
  if (pattern.test('')) throw validationFailed(`custom pattern ${name} matches the empty string`);
  return {
    entityType: name,
    find: (text) =>
      [...text.matchAll(pattern)].map((m) => ({
        entityType: name,
        start: m.index,
        end: m.index + m[0].length,
      })),
  };
}

function checkOperator(entity: string, operator: OperatorConfig): void {
  if (!OPERATOR_TYPES.includes(operator.type)) {
    throw validationFailed(`operator of ${entity} must be one of ${OPERATOR_TYPES.join(', ')}`);
  }
  if (operator.maskingChar !== undefined && [...operator.maskingChar].length !== 1) {
    throw validationFailed(`masking_char of ${entity} must be one character`);
  }
  if (operator.keepLast !== undefined && (!Number.isInteger(operator.keepLast) || operator.keepLast < 0)) {
    throw validationFailed(`keep_last of ${entity} must be a whole number, 0 or more`);
  }
}

function apply(operator: OperatorConfig, entityType: string, value: string, hashKey: Buffer): string {
  switch (operator.type) {
    case 'redact':
      return '';
    case 'replace':
      return operator.newValue || `<${entityType}>`;
    case 'mask': {
      const characters = [...value];
      const keep = Math.min(operator.keepLast ?? 0, characters.length);
      return (
        (operator.maskingChar || '*').repeat(characters.length - keep) +
        characters.slice(characters.length - keep).join('')
      );
    }
    case 'hash':
      return createHmac('sha256', hashKey).update(value).digest('hex');
  }
}

/** Earliest first; of two overlapping spans the longer one wins. */
function withoutOverlaps(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const kept: Span[] = [];
  for (const span of sorted) {
    const last = kept.at(-1);
    if (last === undefined || span.start >= last.end) kept.push(span);
    else if (span.end - span.start > last.end - last.start) kept[kept.length - 1] = span;
  }
  return kept;
}

/** `items[*].card` -> ['items', '*', 'card']. */
function parsePath(path: string): string[] {
  const segments = path.replace(/\[(\*|\d+)\]/g, '.$1').split('.');
  if (path === '' || segments.some((s) => s === ''))
    throw validationFailed(`field path ${path} is malformed`);
  return segments;
}

const matches = (path: string[], at: string[]) =>
  path.length === at.length && path.every((segment, i) => segment === '*' || segment === at[i]);

/** Every scalar under `value` replaced (objects and arrays keep their shape). */
function maskWhole(value: unknown, mask: (leaf: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => maskWhole(item, mask));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskWhole(item, mask)]));
  }
  return value === null ? null : mask(String(value));
}
