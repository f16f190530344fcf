import { Agent, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { localDynamoClient } from '../dynamodb/dynamodb-local';
import { ItemBilling } from './billing';
import { itemId, plainWriteItem, type TouchedItem, transactItems } from './items';
import { relay } from './relay';
import {
  type CancellationCode,
  cancellationBody,
  sendError,
  targetOf,
  throttlingBody,
  transactionConflictBody,
} from './wire';

/**
 * A contention-faithful layer in front of DynamoDB Local (docs/contract.md §20), which itself
 * serialises transactions and never cancels or throttles one:
 * - every item key of a TransactWriteItems is held from receipt until DynamoDB Local answers;
 *   a transaction touching a held item is answered at once, never forwarded, with
 *   TransactionCanceledException: `TransactionConflict` for each held item, `None` for the rest;
 * - a PutItem, UpdateItem or DeleteItem of a held item gets TransactionConflictException;
 * - with `writeUnitsPerSecond`, each item has a write budget (2 units per KB for a
 *   transactional write, 1 for a plain one): a transaction over it is cancelled with
 *   `ThrottlingError` (on-demand tables) for the items over budget, a plain write gets
 *   ThrottlingException with its ThrottlingReasons;
 * - reads, DynamoDB Streams calls and everything else pass through untouched.
 * The SDK sees exactly what DynamoDB sends in those cases (wire.ts), so the application's own
 * conflict and throttling paths run for real.
 */
export interface ContentionLayer {
  /** http://127.0.0.1:<port>, to use as the DynamoDB endpoint. */
  readonly endpoint: string;
  readonly stats: ContentionStats;
  close(): Promise<void>;
}

export interface ContentionStats {
  /** TransactWriteItems DynamoDB Local committed. */
  transactions: number;
  /** TransactWriteItems forwarded to DynamoDB Local (it may still cancel one for a condition). */
  forwarded: number;
  /** TransactWriteItems cancelled because one of their items was held. */
  conflicts: number;
  /** Plain writes answered TransactionConflictException. */
  plainConflicts: number;
  /** Writes (transactional or plain) refused for the write budget. */
  throttled: number;
  /** Time items were held, summed over the forwarded transactions: on one hot item, its busy time. */
  heldMs: number;
  /**
   * Committed writes per item, for the items written more than once (accounts, gates, sequence
   * items; a claim or an entry is written once): what the busiest item of a run took.
   */
  repeatedCommits: Record<string, number>;
}

export interface ContentionOptions {
  /** Where DynamoDB Local listens (a loopback URL). */
  readonly upstream: string;
  /** Write units per second and item; no budget (no throttling) when undefined. */
  readonly writeUnitsPerSecond?: number;
  /** Listen port on 127.0.0.1. @default 0 (a free port) */
  readonly port?: number;
}

interface TableInfo {
  readonly keyNames: readonly string[];
  readonly onDemand: boolean;
  readonly arn: string;
}

/** `GET` here answers the stats as JSON (DynamoDB calls are all `POST /`). */
export const STATS_PATH = '/contention/stats';

export async function startContentionLayer(options: ContentionOptions): Promise<ContentionLayer> {
  const target = new URL(options.upstream);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) {
    throw new Error(
      `the contention layer only fronts loopback endpoints (got ${options.upstream})`,
    );
  }
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const upstream: DynamoDBClient = localDynamoClient(options.upstream);
  const billing =
    options.writeUnitsPerSecond === undefined
      ? undefined
      : new ItemBilling(options.writeUnitsPerSecond, upstream);
  const forward = { agent, target };
  const stats: ContentionStats = {
    transactions: 0,
    forwarded: 0,
    conflicts: 0,
    plainConflicts: 0,
    throttled: 0,
    heldMs: 0,
    repeatedCommits: {},
  };
  const commits = new Map<string, number>();
  const committed = (items: readonly TouchedItem[], ids: readonly string[]) => {
    for (const id of new Set(ids.filter((_, i) => items[i]?.writes))) {
      const n = (commits.get(id) ?? 0) + 1;
      commits.set(id, n);
      if (n > 1) stats.repeatedCommits[id] = n;
    }
  };
  const held = new Set<string>();
  const tables = new Map<string, Promise<TableInfo>>();

  const tableInfo = (table: string): Promise<TableInfo> => {
    let info = tables.get(table);
    if (!info) {
      info = upstream.send(new DescribeTableCommand({ TableName: table })).then(({ Table }) => ({
        keyNames: (Table?.KeySchema ?? []).map((k) => k.AttributeName ?? ''),
        onDemand: Table?.BillingModeSummary?.BillingMode !== 'PROVISIONED',
        arn: Table?.TableArn ?? `arn:aws:dynamodb:local:000000000000:table/${table}`,
      }));
      // A table that does not exist (yet) is asked again next time; DynamoDB Local answers the request.
      info.catch(() => tables.delete(table));
      tables.set(table, info);
    }
    return info;
  };
  const known = new Map<string, TableInfo>();
  const keyNamesOf = (table: string) => known.get(table)?.keyNames ?? ['pk', 'sk'];

  async function learnTables(names: Iterable<string>): Promise<void> {
    for (const name of new Set(names)) {
      if (known.has(name)) continue;
      try {
        known.set(name, await tableInfo(name));
      } catch {
        // Unknown table: DynamoDB Local will say so.
      }
    }
  }

  async function transaction(raw: Buffer, req: IncomingMessage, res: ServerResponse) {
    const body = parse(raw);
    const names = ((body as { TransactItems?: unknown[] })?.TransactItems ?? []).map((entry) =>
      String(Object.values((entry ?? {}) as Record<string, { TableName?: string }>)[0]?.TableName),
    );
    await learnTables(names);
    // From here to the hold nothing awaits: checking and holding are one step.
    const items = transactItems(body, keyNamesOf);
    const ids = items.map((item) => itemId(item.table, item.key));
    if (ids.some((id) => held.has(id))) {
      stats.conflicts++;
      const codes = ids.map(
        (id): CancellationCode => (held.has(id) ? 'TransactionConflict' : 'None'),
      );
      return sendError(res, cancellationBody(codes));
    }
    const over = billing?.overBudget(items, ids, true);
    if (over) {
      stats.throttled++;
      const onDemand = items.every((item) => known.get(item.table)?.onDemand !== false);
      const code: CancellationCode = onDemand ? 'ThrottlingError' : 'ProvisionedThroughputExceeded';
      return sendError(res, cancellationBody(ids.map((id) => (over.has(id) ? code : 'None'))));
    }
    const holding = [...new Set(ids)];
    for (const id of holding) held.add(id);
    stats.forwarded++;
    const heldAt = performance.now();
    relay(forward, raw, req, res, (status) => {
      stats.heldMs += performance.now() - heldAt;
      if (status === 200) stats.transactions++;
      for (const id of holding) held.delete(id);
      if (status === 200) billing?.committed(items, ids);
      if (status === 200) committed(items, ids);
    });
  }

  async function plainWrite(
    operation: string,
    raw: Buffer,
    req: IncomingMessage,
    res: ServerResponse,
  ) {
    const body = parse(raw);
    const table = String((body as { TableName?: unknown })?.TableName);
    await learnTables([table]);
    const item = plainWriteItem(operation, body, keyNamesOf);
    const id = itemId(item.table, item.key);
    if (held.has(id)) {
      stats.plainConflicts++;
      return sendError(res, transactionConflictBody());
    }
    if (billing?.overBudget([item], [id], false)) {
      stats.throttled++;
      const info = known.get(table);
      return sendError(res, throttlingBody(info?.onDemand !== false, info?.arn ?? table));
    }
    relay(forward, raw, req, res, (status) => {
      if (status === 200) billing?.committed([item], [id]);
      if (status === 200) committed([item], [id]);
    });
  }

  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === STATS_PATH) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(stats));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const { service, operation } = targetOf(req.headers);
      const work =
        service !== 'DynamoDB'
          ? relay(forward, raw, req, res)
          : operation === 'TransactWriteItems'
            ? transaction(raw, req, res)
            : ['PutItem', 'UpdateItem', 'DeleteItem'].includes(operation)
              ? plainWrite(operation, raw, req, res)
              : relay(forward, raw, req, res);
      Promise.resolve(work).catch(() => res.destroy());
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        upstream.destroy();
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parse(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}
