import { randomUUID } from 'node:crypto';
import { BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import type { IndexedObject, Pair } from '../../../functions/domain/search/model';
import { indexItem, searchKeys } from '../../../functions/dynamodb/search/items';
import { toAttributes } from '../../../functions/dynamodb/table/attributes';
import { keys } from '../../../functions/dynamodb/table/keys';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/**
 * The cost of a search (docs/contract.md §34, ../shared/CONTRACT.md §36): two filters over an
 * account with 10,000 indexed entries cost ONE Query per page, of the rarer filter's partition.
 * The index items are seeded directly (the indexer writes the same items: items.ts); the 30
 * entries the rare filter finds exist as entries too.
 */
const fixture = useLedgerFixture();
const { api } = fixture;

const ENTRIES = 10_000;
const RARE = 30;

async function writeAll(items: Record<string, unknown>[]) {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  const worker = async () => {
    for (let batch = batches[next++]; batch; batch = batches[next++]) {
      let pending = batch.map((item) => ({ PutRequest: { Item: toAttributes(item) } }));
      while (pending.length > 0) {
        const { UnprocessedItems } = await fixture.client.send(
          new BatchWriteItemCommand({ RequestItems: { [fixture.tableName]: pending } }),
        );
        pending = (UnprocessedItems?.[fixture.tableName] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** The DynamoDB commands `work` sends. */
async function counting<T>(work: () => Promise<T>): Promise<{ result: T; sent: string[] }> {
  const name = `count-${randomUUID()}`;
  const sent: string[] = [];
  fixture.client.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    return { result: await work(), sent };
  } finally {
    fixture.client.middlewareStack.remove(name);
  }
}

describe('search cost', () => {
  it('two filters over 10,000 entries: one Query per page of the rarer filter', async () => {
    const accountId = await api.account();
    const order: Pair = { field: 'metadata.order', value: randomUUID() };
    const shop: Pair = { field: 'metadata.shop', value: 's1' };
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
    const objects = Array.from(
      { length: ENTRIES },
      (_, i): IndexedObject => ({
        kind: 'entry',
        id: randomUUID(),
        ownerId: 'alice',
        sortAt: at(i),
        accountId,
        pairs: i < RARE ? [order, shop] : [order],
      }),
    );
    const rare = objects.slice(0, RARE);
    await writeAll([
      ...objects.map((object) => indexItem(object, order)),
      ...rare.map((object) => indexItem(object, shop)),
      { ...searchKeys.count('alice', 'entry', order), kind: 'search-count', count: ENTRIES },
      { ...searchKeys.count('alice', 'entry', shop), kind: 'search-count', count: RARE },
      ...rare.map((object) => ({
        ...keys.entry(accountId, object.sortAt, object.id),
        kind: 'entry',
        id: object.id,
        accountId,
        type: 'credit',
        amount: 1,
        currency: 'EUR',
        origin: 'http',
        metadata: { order: order.value, shop: shop.value },
        createdAt: object.sortAt,
      })),
    ]);

    const seen: string[] = [];
    const queries: number[] = [];
    let cursor: string | undefined;
    do {
      const { result, sent } = await counting(() =>
        api.get('/v1/transactions', 'alice', {
          'metadata.order': order.value,
          'metadata.shop': shop.value,
          limit: '10',
          ...(cursor ? { cursor } : {}),
        }),
      );
      const body = bodyOf(result);
      seen.push(...(body.items as { id: string }[]).map((entry) => entry.id));
      cursor = (body.nextCursor as string | null) ?? undefined;
      queries.push(sent.filter((name) => name === 'QueryCommand').length);
      // Besides: the counts (one BatchGetItem), the page's entries and their accounts' owners
      // (one each, none for an empty page).
      const others = sent.filter((name) => name !== 'QueryCommand');
      expect(others.every((name) => name === 'BatchGetItemCommand')).toBe(true);
      expect(others.length).toBe(body.items && (body.items as unknown[]).length > 0 ? 3 : 1);
    } while (cursor && queries.length < 10);
    // 30 matches in pages of 10: three full pages (and an empty one the last cursor promised).
    expect(queries.every((n) => n === 1)).toBe(true);
    expect(queries.length).toBeLessThanOrEqual(4);
    expect(seen).toEqual(rare.map((object) => object.id).reverse());
  }, 120_000);
});
