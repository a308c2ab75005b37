/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The one rule on text the platform looks up or stores (docs/security.md "Hostile input"),
 * applied where a request enters (the HTTP apps' hook, the sidecar's gRPC server): no lone
 * surrogate, which is not Unicode (UTF-8 and protobuf cannot carry it, RFC 7493 section 2.1),
 * and no NUL, which Postgres text cannot hold at all (SQLite would keep it: the two would
 * answer differently). Opaque values (a secret's value, a job's payload) may hold a NUL: they are
 * stored sealed or as escaped JSON, never as raw text.
 */
export function textFault(text: string, opaque = false): string | undefined {
  if (LONE_SURROGATE.test(text)) return 'holds a lone surrogate';
  if (!opaque && text.includes('\u0000')) return 'holds a NUL character';
  return undefined;
}

/** Which text in a request breaks the rule, and how: `where` names it for the caller. */
export interface UnstorableText {
  where: string;
  fault: string;
}

/**
 * The first text in `value` (a string, or JSON-like arrays and objects, keys included) that
 * breaks the rule, named by its path under `where` (`''`: members by their own names).
 * `opaque(path)` says which members are opaque, by their path with array indices left out (`output`,
 * `completions[].output`).
 */
export function findUnstorableText(
  value: unknown,
  where: string,
  opaque: (member: string) => boolean = () => false,
): UnstorableText | undefined {
  return search(value, where, false, opaque);
}

function search(
  value: unknown,
  where: string,
  opaque: boolean,
  opaqueMember?: (member: string) => boolean,
): UnstorableText | undefined {
  if (typeof value === 'string') {
    const fault = textFault(value, opaque);
    return fault === undefined ? undefined : { where, fault };
  }
  // Bytes (a gRPC `bytes` field) are not text.
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = search(item, `${where}[${index}]`, opaque, opaqueMember);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyFault = textFault(key, opaque);
    if (keyFault !== undefined) return { where: `a member name of ${where || 'the body'}`, fault: keyFault };
    const path = where ? `${where}.${key}` : key;
    const opaqueHere = opaque || (opaqueMember?.(withoutIndices(path)) ?? false);
    const found = search(item, path, opaqueHere, opaqueMember);
    if (found) return found;
  }
  return undefined;
}

const withoutIndices = (path: string): string => (path.includes('[') ? path.replace(/\[\d+\]/g, '[]') : path);
