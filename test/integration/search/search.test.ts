import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../../functions/domain/journal/model';
import { SearchIndexer } from '../../../functions/domain/search/indexer';
import { silentLog } from '../../../functions/domain/shared/log';
import { createSearchIndexStore } from '../../../functions/dynamodb/search/index-store';
import { createIndexSource } from '../../../functions/dynamodb/search/source';
import { Problem } from '../../../functions/schemas/shared';
import { httpEvent } from '../../../kit/http-event';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/**
 * Search on DynamoDB Local (docs/contract.md §34): the HTTP routes over what the indexer wrote.
 * The indexer is handed each account's entries as journal records (the projector's part is
 * tested with it: test/unit/domain/journal-projector/search-hand-off.test.ts, test/e2e).
 */
const fixture = useLedgerFixture();
const { api } = fixture;

/** Indexes the account as created and every entry it has, as the indexer's jobs would. */
async function index(accountId: string, as = 'alice') {
  const table = { client: fixture.client, tableName: fixture.tableName };
  const source = createIndexSource(table);
  const entries = (await api.entries(accountId, as)).reverse();
  const records = entries.map(
    (entry, i): JournalRecord => ({
      accountId,
      sequence: i + 1,
      kind: 'credit',
      entryId: String(entry.id),
      balanceDelta: 0,
      availableDelta: 0,
      balanceAfter: 0,
      availableAfter: 0,
      committedAt: String(entry.createdAt),
    }),
  );
  const indexer = new SearchIndexer({
    index: createSearchIndexStore(table),
    source: { ...source, records: async (_a, from, to) => records.slice(from - 1, to) },
    log: silentLog,
  });
  await indexer.run({ kind: 'account', accountId });
  if (records.length > 0) {
    await indexer.run({ kind: 'journal', accountId, from: 1, through: records.length });
  }
}

const credit = (accountId: string, body: Record<string, unknown>, as = 'alice') =>
  api.post(
    `/v1/accounts/${accountId}/transactions`,
    { type: 'credit', amount: 1, currency: 'EUR', ...body },
    randomUUID(),
    as,
  );
const search = async (path: string, query: Record<string, string>, as = 'alice') => {
  const res = await api.get(path, as, query);
  return { res, body: bodyOf(res) };
};
const ids = (body: Record<string, unknown>) =>
  (body.items as { id: string }[]).map((item) => item.id);
const codeOf = (body: Record<string, unknown>) => Problem.parse(body).code;

describe('GET /v1/transactions', () => {
  it('finds by metadata (AND of two), reference and paymentId, newest first, only the caller’s', async () => {
    const order = randomUUID();
    const account = await api.account();
    const both = bodyOf(await credit(account, { metadata: { order, shop: 's1' } }));
    const one = bodyOf(
      await credit(account, { metadata: { order, shop: 's2' }, reference: order }),
    );
    const paid = bodyOf(await credit(account, { paymentId: `p-${order}` }));
    const bobs = await api.account(0, 'EUR', 'bob');
    await credit(bobs, { metadata: { order, shop: 's1' } }, 'bob');
    await index(account);
    await index(bobs, 'bob');

    const byOrder = await search('/v1/transactions', { 'metadata.order': order });
    expect(ids(byOrder.body)).toEqual([one.id, both.id]);
    expect(byOrder.body.indexedThrough).toBeNull();
    const and = await search('/v1/transactions', {
      'metadata.order': order,
      'metadata.shop': 's1',
    });
    expect(ids(and.body)).toEqual([both.id]);
    expect(ids((await search('/v1/transactions', { reference: order })).body)).toEqual([one.id]);
    expect(ids((await search('/v1/transactions', { paymentId: `p-${order}` })).body)).toEqual([
      paid.id,
    ]);
    // Exact, case-sensitive.
    expect(
      ids((await search('/v1/transactions', { reference: order.toUpperCase() })).body),
    ).toEqual([]);
    const scoped = await search('/v1/transactions', {
      'metadata.order': order,
      accountId: account,
    });
    expect(ids(scoped.body)).toHaveLength(2);
    expect(typeof scoped.body.indexedThrough).toBe('string');
    // bob finds only his own; alice's account is not found for him.
    const bob = await search('/v1/transactions', { 'metadata.order': order }, 'bob');
    expect(ids(bob.body)).toHaveLength(1);
    const foreign = await search(
      '/v1/transactions',
      { reference: order, accountId: account },
      'bob',
    );
    expect(foreign.res.statusCode).toBe(404);
  });

  it('pages with nextCursor until the last page', async () => {
    const tag = randomUUID();
    const account = await api.account();
    for (let i = 0; i < 5; i++) await credit(account, { metadata: { tag } });
    await index(account);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const { body } = await search('/v1/transactions', {
        'metadata.tag': tag,
        limit: '2',
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...ids(body));
      cursor = (body.nextCursor as string | null) ?? undefined;
      if (!cursor) break;
    }
    expect(new Set(seen).size).toBe(5);
    expect(cursor).toBeUndefined();
  });

  it.each<[string, Record<string, string>]>([
    ['no filter', {}],
    [
      'six filters',
      Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`metadata.k${i}`, 'v'])),
    ],
    ['an unknown parameter', { color: 'red' }],
    ['a bad metadata key', { 'metadata.a b': 'v' }],
  ])('answers 400 validation_failed for %s', async (_name, query) => {
    const { res, body } = await search('/v1/transactions', query);
    expect(res.statusCode).toBe(400);
    expect(codeOf(body)).toBe('validation_failed');
  });

  it('answers 400 for a repeated query parameter', async () => {
    // API Gateway joins the values with a comma; the raw query string tells them apart.
    const event = httpEvent('GET', '/v1/transactions', {
      principal: 'alice',
      query: { reference: 'a,b' },
    });
    const res = await fixture.app({ ...event, rawQueryString: 'reference=a&reference=b' });
    expect(res.statusCode).toBe(400);
    expect(Problem.parse(bodyOf(res)).errors?.[0]?.path).toBe('query.reference');
  });
});

describe('GET /v1/accounts', () => {
  it('finds accounts by metadata and name prefix; a removed pair is no longer found', async () => {
    const order = randomUUID();
    const post = (body: Record<string, unknown>) =>
      api.post('/v1/accounts', { currency: 'EUR', ...body });
    const shop = String(bodyOf(await post({ name: 'Shop Berlin', metadata: { order } })).id);
    const other = String(bodyOf(await post({ name: 'Warehouse', metadata: { order } })).id);
    await index(shop);
    await index(other);
    expect(ids((await search('/v1/accounts', { 'metadata.order': order })).body)).toEqual([
      other,
      shop,
    ]);
    const named = await search('/v1/accounts', { 'metadata.order': order, name: 'sHoP b' });
    expect(ids(named.body)).toEqual([shop]);
    expect((named.body.items as { metadata?: unknown }[])[0]?.metadata).toEqual({ order });

    await api.post(`/v1/accounts/${shop}/settings`, { metadata: null });
    await index(shop);
    expect(ids((await search('/v1/accounts', { 'metadata.order': order })).body)).toEqual([other]);
    expect(ids((await search('/v1/accounts', { name: 'shop berlin' })).body)).toEqual([shop]);
    expect(ids((await search('/v1/accounts', { 'metadata.order': order }, 'bob')).body)).toEqual(
      [],
    );
  });
});
