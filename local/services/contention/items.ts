/**
 * What the contention layer reads from a write request: which items it touches (by table and
 * primary key) and how large they are, measured the way DynamoDB bills them.
 */

/** A DynamoDB attribute value as it travels on the wire (`{ "S": "..." }`, `{ "M": {...} }`, …). */
export type WireValue = Readonly<Record<string, unknown>>;
export type WireItem = Readonly<Record<string, WireValue>>;

/** One item a request writes (or checks): its table, its key and, for a Put, the item itself. */
export interface TouchedItem {
  readonly table: string;
  readonly key: WireItem;
  /** `Put` and `PutItem` carry the whole item; updates, deletes and checks only the key. */
  readonly item?: WireItem;
  /** ConditionCheck reads; it holds the item but writes nothing. */
  readonly writes: boolean;
}

/** The key attribute names of each table (`pk`, `sk` for the ledger table). */
export type KeySchemaOf = (table: string) => readonly string[];

/** The items of one TransactWriteItems request, in request order. */
export function transactItems(body: unknown, keyNames: KeySchemaOf): TouchedItem[] {
  const items = (body as { TransactItems?: unknown })?.TransactItems;
  if (!Array.isArray(items)) return [];
  return items.map((entry: Record<string, Record<string, unknown> | undefined>) => {
    const [action, spec] = Object.entries(entry ?? {})[0] ?? ['', undefined];
    const table = String(spec?.TableName ?? '');
    if (action === 'Put') return putItem(table, spec?.Item as WireItem | undefined, keyNames);
    return {
      table,
      key: (spec?.Key as WireItem | undefined) ?? {},
      writes: action !== 'ConditionCheck',
    };
  });
}

/** The one item of a PutItem, UpdateItem or DeleteItem request. */
export function plainWriteItem(
  operation: string,
  body: unknown,
  keyNames: KeySchemaOf,
): TouchedItem {
  const spec = (body ?? {}) as Record<string, unknown>;
  const table = String(spec.TableName ?? '');
  if (operation === 'PutItem') return putItem(table, spec.Item as WireItem | undefined, keyNames);
  return { table, key: (spec.Key as WireItem | undefined) ?? {}, writes: true };
}

function putItem(table: string, item: WireItem | undefined, keyNames: KeySchemaOf): TouchedItem {
  const key: Record<string, WireValue> = {};
  for (const name of keyNames(table)) {
    const value = item?.[name];
    if (value !== undefined) key[name] = value;
  }
  return { table, key, ...(item ? { item } : {}), writes: true };
}

/** One string per item, the same whatever order the key's attributes came in. */
export function itemId(table: string, key: WireItem): string {
  const parts = Object.keys(key)
    .sort()
    .map((name) => [name, key[name]]);
  return `${table}\u0000${JSON.stringify(parts)}`;
}

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * Bytes of one value by DynamoDB's sizing rules: strings and binaries by length, a number by
 * its significant digits (about one byte per two, plus one), booleans and nulls one byte, and
 * lists and maps three bytes plus one per element on top of their elements.
 */
export function valueSize(value: WireValue): number {
  const [type, raw] = Object.entries(value)[0] ?? ['NULL', true];
  switch (type) {
    case 'S':
      return utf8(String(raw));
    case 'N':
      return numberSize(String(raw));
    case 'B':
      return Buffer.from(String(raw), 'base64').length;
    case 'SS':
      return (raw as string[]).reduce((sum, s) => sum + utf8(s), 0);
    case 'NS':
      return (raw as string[]).reduce((sum, n) => sum + numberSize(n), 0);
    case 'BS':
      return (raw as string[]).reduce((sum, b) => sum + Buffer.from(b, 'base64').length, 0);
    case 'L':
      return (raw as WireValue[]).reduce((sum, v) => sum + 1 + valueSize(v), 3);
    case 'M':
      return Object.entries(raw as WireItem).reduce(
        (sum, [name, v]) => sum + 1 + utf8(name) + valueSize(v),
        3,
      );
    default:
      return 1;
  }
}

function numberSize(text: string): number {
  const digits = text
    .replace(/^-/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '');
  const significant = digits.replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(1, significant.length) / 2) + 1;
}

/** Bytes of a whole item: every attribute's name plus its value. */
export function itemSize(item: WireItem): number {
  return Object.entries(item).reduce(
    (sum, [name, value]) => sum + utf8(name) + valueSize(value),
    0,
  );
}

/** Write units of one item: 1 KB each, rounded up; transactional writes cost twice as much. */
export function writeUnits(bytes: number, transactional: boolean): number {
  return Math.max(1, Math.ceil(bytes / 1024)) * (transactional ? 2 : 1);
}
