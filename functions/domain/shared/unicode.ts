/**
 * Every string the service accepts must be well-formed Unicode (docs/contract.md §3). JSON's
 * `\uD800` escapes can smuggle a lone surrogate past `JSON.parse`; such a string cannot be
 * stored, signed or echoed faithfully, so it is refused at the edge.
 */

/** In a `u` regex a surrogate range matches only halves that are not part of a pair. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/**
 * The path (`a.b.0`) of the first string or object key in a parsed JSON value that is not
 * well-formed Unicode; undefined when there is none.
 */
export function illFormedPath(value: unknown, path: readonly string[] = []): string | undefined {
  if (typeof value === 'string') return isWellFormed(value) ? undefined : path.join('.');
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = illFormedPath(item, [...path, String(index)]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!isWellFormed(key)) return [...path, key].join('.');
      const found = illFormedPath(item, [...path, key]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Size of a string as DynamoDB counts it for key limits. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * The path of the first object key `__proto__` in a parsed JSON value; undefined when there is
 * none. In JavaScript such a key is a setter, so validation drops it silently: a `metadata` pair
 * of that name would vanish from what is stored and echoed. The edges refuse it instead.
 */
export function protoKeyPath(value: unknown, path: readonly string[] = []): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) {
    return [...path, '__proto__'].join('.');
  }
  for (const [key, item] of Object.entries(value)) {
    const found = protoKeyPath(item, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}
