/**
 * What each command costs in DynamoDB write units on AWS (docs/contract.md §20 "Cost"), from
 * the items it really writes: every item of its TransactWriteItems is captured on the way out;
 * a Put is billed by its own size, an Update by the item as it stands afterwards (DynamoDB
 * bills the larger of before and after; these updates change a few numbers, so after is the
 * larger or the same); a ConditionCheck is a read. A transactional write costs 2 units
 * per KB and item, a plain write 1. DynamoDB Local's own ConsumedCapacity undercounts
 * transactions, so it is not used.
 */
import { randomUUID } from 'node:crypto';
import {
  type DynamoDBClient,
  GetItemCommand,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
import type { HttpHandler } from '../../functions/api/types';
import { httpEvent } from '../../kit/http-event';
import { itemSize, type WireItem, writeUnits } from '../../local/services/contention/items';
import { PRINCIPAL } from '../http/scenarios';
import { FULL_CHUNK } from './model';
import { type Consume, producerRecords } from './scenarios';

export interface CommandCost {
  readonly command: string;
  /** Transactions it took. */
  readonly transactions: number;
  /** Items written in them. */
  readonly items: number;
  /** The largest item, in bytes. */
  readonly largestBytes: number;
  /** Write units on AWS. */
  readonly writeUnits: number;
  /** Ledger events it applied (event writes only). */
  readonly events?: number;
}

export type CommandCosts = readonly CommandCost[];

/** A Powertools `makeIdempotent` credit: PutItem (1), the 2-item transaction (4), UpdateItem (1). */
export const POWERTOOLS_CREDIT_UNITS = 6;

/** Records the items of every TransactWriteItems a client sends. */
export function captureTransactions(client: DynamoDBClient): () => TransactWriteItem[][] {
  const seen: TransactWriteItem[][] = [];
  client.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { TransactItems?: TransactWriteItem[] };
      if (input.TransactItems) seen.push(input.TransactItems);
      return next(args);
    },
    { step: 'initialize', name: 'captureTransactItems' },
  );
  return () => seen.splice(0);
}

export interface CostFixture {
  /** Client the commands write through (its transactions are captured). */
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly http: HttpHandler;
  /** The batched events consumer on the same client. */
  readonly consume: Consume;
}

export async function measureCosts(f: CostFixture): Promise<CommandCosts> {
  const taken = captureTransactions(f.client);
  const costs: CommandCost[] = [];
  const post = async (path: string, body: unknown) => {
    const answer = await f.http(
      httpEvent('POST', path, { principal: PRINCIPAL, idempotencyKey: randomUUID(), body }),
    );
    if (answer.statusCode >= 300) throw new Error(`${path}: ${answer.statusCode} ${answer.body}`);
    return JSON.parse(answer.body) as { id: string };
  };
  /** Runs one command and bills every transaction it sent. */
  const bill = async (command: string, run: () => Promise<unknown>, events?: number) => {
    taken();
    await run();
    const transactions = taken();
    let units = 0;
    let items = 0;
    let largest = 0;
    for (const transaction of transactions) {
      for (const item of transaction) {
        const size = await billedSize(f.client, item);
        if (size === undefined) continue;
        items++;
        largest = Math.max(largest, size);
        units += writeUnits(size, true);
      }
    }
    costs.push({
      command,
      transactions: transactions.length,
      items,
      largestBytes: largest,
      writeUnits: units,
      ...(events === undefined ? {} : { events }),
    });
  };

  let account = '';
  await bill('create an account', async () => {
    account = (await post('/v1/accounts', { currency: 'EUR' })).id;
  });
  const other = (await post('/v1/accounts', { currency: 'EUR' })).id;
  await bill('HTTP credit', () =>
    post(`/v1/accounts/${account}/transactions`, { type: 'credit', amount: 500, currency: 'EUR' }),
  );
  await bill('HTTP credit with paymentId', () =>
    post(`/v1/accounts/${account}/transactions`, {
      type: 'credit',
      amount: 500,
      currency: 'EUR',
      paymentId: `pay-${randomUUID()}`,
    }),
  );
  await bill('transfer', () =>
    post('/v1/transfers', {
      fromAccountId: account,
      toAccountId: other,
      amount: 1,
      currency: 'EUR',
    }),
  );
  await bill('hold placed', () =>
    post(`/v1/accounts/${account}/holds`, { amount: 1, currency: 'EUR', expiresInSeconds: 60 }),
  );
  for (const records of [1, 10, FULL_CHUNK]) {
    const batch = producerRecords(account, 1, records);
    await bill(
      records === 1 ? 'ledger event (credit, with sequence)' : `${records} ledger events, batched`,
      async () => {
        const answer = await f.consume({ Records: batch });
        if (answer.batchItemFailures.length > 0) throw new Error('a cost event failed');
      },
      records,
    );
  }
  return costs;

  /** A Put by its own size; an Update or Delete by the item as it stands now. */
  async function billedSize(
    client: DynamoDBClient,
    item: TransactWriteItem,
  ): Promise<number | undefined> {
    if (item.Put) return itemSize(item.Put.Item as unknown as WireItem);
    const spec = item.Update ?? item.Delete;
    if (!spec) return undefined; // a ConditionCheck reads
    const { Item } = await client.send(
      new GetItemCommand({ TableName: spec.TableName, Key: spec.Key, ConsistentRead: true }),
    );
    return Item ? itemSize(Item as unknown as WireItem) : 1;
  }
}
