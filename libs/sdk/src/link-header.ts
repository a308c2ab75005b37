/** One link of an RFC 8288 `Link` header: its target and its parameters (names lower-cased). */
export interface Link {
  target: string;
  params: Record<string, string>;
}

/**
 * Parses an RFC 8288 `Link` header: `<target>; rel="next"; title="a, b", <other>; rel=prev`.
 * Commas and semicolons inside `<...>` or quoted strings do not split. Malformed parts are
 * skipped rather than thrown on: a bad header means "no links".
 */
export function parseLinkHeader(header: string | null | undefined): Link[] {
  const links: Link[] = [];
  if (!header) return links;
  let i = 0;
  const n = header.length;
  const skipSpace = () => {
    while (i < n && /\s/.test(header[i])) i++;
  };
  while (i < n) {
    skipSpace();
    if (header[i] !== '<') {
      // Not a link: skip to the next top-level comma.
      i = nextComma(header, i) + 1;
      continue;
    }
    const close = header.indexOf('>', i);
    if (close < 0) break;
    const link: Link = { target: header.slice(i + 1, close).trim(), params: {} };
    i = close + 1;
    for (;;) {
      skipSpace();
      if (header[i] !== ';') break;
      i++;
      skipSpace();
      const nameStart = i;
      while (i < n && !/[\s=;,]/.test(header[i])) i++;
      const name = header.slice(nameStart, i).toLowerCase();
      skipSpace();
      let value = '';
      if (header[i] === '=') {
        i++;
        skipSpace();
        if (header[i] === '"') {
          i++;
          while (i < n && header[i] !== '"') {
            if (header[i] === '\\' && i + 1 < n) i++;
            value += header[i++];
          }
          i++;
        } else {
          const valueStart = i;
          while (i < n && !/[\s;,]/.test(header[i])) i++;
          value = header.slice(valueStart, i);
        }
      }
      // RFC 8288 section 3: occurrences after the first of a parameter are ignored.
      if (name && !(name in link.params)) link.params[name] = value;
    }
    links.push(link);
    i = nextComma(header, i) + 1;
  }
  return links;
}

/** The target of the first link whose `rel` (a space-separated list) contains `rel`. */
export function findLink(header: string | null | undefined, rel: string): string | undefined {
  const wanted = rel.toLowerCase();
  return parseLinkHeader(header).find((link) =>
    (link.params.rel ?? '').toLowerCase().split(/\s+/).includes(wanted),
  )?.target;
}

function nextComma(header: string, from: number): number {
  let inQuotes = false;
  let inAngles = false;
  for (let i = from; i < header.length; i++) {
    const c = header[i];
    if (inQuotes) {
      if (c === '\\') i++;
      else if (c === '"') inQuotes = false;
    } else if (inAngles) {
      if (c === '>') inAngles = false;
    } else if (c === '"') inQuotes = true;
    else if (c === '<') inAngles = true;
    else if (c === ',') return i;
  }
  return header.length;
}
