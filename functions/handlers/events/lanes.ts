import type { SQSRecord } from 'aws-lambda';

/**
 * Groups records into lanes, batch order kept within each: records that touch a common account
 * (its `subject`, a transfer's `data.toAccountId`, a ledger transaction's legs) share a lane, transitively. Unreadable
 * records get a lane of their own.
 */
export function lanesOf(records: readonly SQSRecord[]): SQSRecord[][] {
  const parent = new Map<string, string>();
  const find = (key: string): string => {
    let root = key;
    for (let up = parent.get(root); up !== undefined && up !== root; up = parent.get(root)) {
      root = up;
    }
    parent.set(key, root);
    return root;
  };
  const union = (a: string, b: string) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) parent.set(rb, ra);
  };
  const keysOf = records.map((record) => {
    const accounts = accountsOf(record);
    const keys =
      accounts.length > 0 ? accounts.map((id) => `account:${id}`) : [`message:${record.messageId}`];
    for (const key of keys) if (!parent.has(key)) parent.set(key, key);
    for (const key of keys.slice(1)) union(keys[0] as string, key);
    return keys[0] as string;
  });
  const lanes = new Map<string, SQSRecord[]>();
  records.forEach((record, index) => {
    const lane = find(keysOf[index] as string);
    lanes.set(lane, [...(lanes.get(lane) ?? []), record]);
  });
  return [...lanes.values()];
}

/** The accounts a record touches, lower-cased; none when it cannot be read. */
function accountsOf(record: SQSRecord): string[] {
  try {
    const body = JSON.parse(record.body) as {
      subject?: unknown;
      data?: { toAccountId?: unknown; legs?: unknown };
    };
    // A ledger transaction touches every leg's account (docs/contract.md §16).
    const legs = Array.isArray(body.data?.legs)
      ? (body.data.legs as { accountId?: unknown }[])
      : [];
    return [body.subject, body.data?.toAccountId, ...legs.map((leg) => leg?.accountId)]
      .filter((id): id is string => typeof id === 'string')
      .map((id) => id.toLowerCase());
  } catch {
    // Unparseable: it will be dead-lettered on its own lane.
    return [];
  }
}
