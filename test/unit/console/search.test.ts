import { describe, expect, it } from 'vitest';
import { consoleSearchOver } from '../../../console/server/search/search';
import type { AccountRecord, LedgerEntry } from '../../../functions/domain/accounts/model';
import { SearchService } from '../../../functions/domain/search/service';
import { fakeSearchReadPort } from '../../support/fakes/search';

/** The console's search box (docs/console.md): the API's search, as the owner typed (§34). */
const at = '2026-01-01T00:00:00.000Z';
const account = (id: string, ownerId: string): AccountRecord => ({
  id,
  ownerId,
  currency: 'JPY',
  balance: 0,
  available: 0,
  overdraftLimit: 0,
  status: 'open',
  version: 0,
  creditIntake: 'direct',
  createdAt: at,
  updatedAt: at,
  metadata: { order: '42' },
});
const entry: LedgerEntry = {
  id: 'e1',
  accountId: 'a1',
  type: 'credit',
  amount: 500,
  currency: 'JPY',
  reference: 'inv-7',
  metadata: { order: '42' },
  origin: 'http',
  createdAt: at,
  effectiveAt: at,
};

function searchOver(owners: Record<string, string>) {
  const port = fakeSearchReadPort({
    counts: async (owner, _kind, pairs) => pairs.map(() => (owner === 'alice' ? 1 : 0)),
    query: async ({ kind }) => ({
      hits: [{ id: kind === 'entry' ? 'e1' : 'a1', accountId: 'a1', sortAt: at }],
      nextCursor: 'next',
    }),
    entries: async (hits) => hits.map(() => entry),
    accounts: async (ids) => ids.map((id) => account(id, owners[id] ?? 'alice')),
    account: async (id) => account(id, owners[id] ?? 'alice'),
    readHead: async () => ({ committedAt: at, sequence: 3 }),
  });
  return { port, search: consoleSearchOver(new SearchService(port)) };
}
const find = (query: string, owners: Record<string, string> = {}) =>
  searchOver(owners).search.find(new URLSearchParams(query));

describe('console search', () => {
  it('finds transactions and accounts by metadata as the owner typed', async () => {
    const { port, search } = searchOver({});
    const answer = await search.find(new URLSearchParams('owner=alice&metadata.order=42'));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      owner: 'alice',
      transactions: {
        items: [{ id: 'e1', amount: 500, currency: 'JPY', reference: 'inv-7' }],
        nextCursor: 'next',
        indexedThrough: null,
      },
      accounts: { items: [{ id: 'a1', ownerId: 'alice', currency: 'JPY' }], nextCursor: 'next' },
    });
    expect(port.counts.mock.calls.map((call) => call[0])).toEqual(['alice', 'alice']);
    expect(port.query.mock.calls.map((call) => call[0].ownerId)).toEqual(['alice', 'alice']);
  });

  it("never shows another owner's objects", async () => {
    const bob = await find('owner=bob&metadata.order=42');
    expect(bob.body).toMatchObject({ transactions: { items: [] }, accounts: { items: [] } });
    const foreign = await find('owner=alice&metadata.order=42', { a1: 'bob' });
    expect(foreign.body).toMatchObject({ accounts: { items: [] } });
    const theirs = await find(`owner=bob&reference=inv-7&accountId=${UUID}`, { [UUID]: 'alice' });
    expect(theirs.status).toBe(404);
  });

  it('pages with cursor and reads indexedThrough for one account', async () => {
    const { port, search } = searchOver({});
    const answer = await search.find(
      new URLSearchParams(`owner=alice&paymentId=p-1&accountId=${UUID}&cursor=c1&limit=5`),
    );
    expect(answer.body).toMatchObject({ transactions: { indexedThrough: at } });
    expect(answer.body).not.toHaveProperty('accounts');
    expect(port.query.mock.calls[0]?.[0]).toMatchObject({
      cursor: 'c1',
      limit: 5,
      accountId: UUID,
      rarest: { field: 'paymentId', value: 'p-1' },
    });
  });

  it('finds accounts by name alone', async () => {
    const answer = await find('owner=alice&name=Sav');
    expect(answer.body).not.toHaveProperty('transactions');
    expect(answer.body).toMatchObject({ accounts: { items: [{ id: 'a1' }] } });
  });

  it.each([
    ['no owner', 'metadata.order=42', /owner/],
    ['a blank owner', 'owner=%20&reference=r', /owner/],
    ['no filter', 'owner=alice', /at least one filter/],
    ['only an account id', `owner=alice&accountId=${UUID}`, /at least one filter/],
    ['a malformed metadata key', 'owner=alice&metadata.b%20ad=1', /metadata\.b ad/],
    ['an unknown parameter', 'owner=alice&reference=r&colour=red', /colour/],
    ['a repeated parameter', 'owner=alice&reference=r&reference=s', /more than once/],
    ['a malformed account id', 'owner=alice&reference=r&accountId=nope', /accountId/],
    ['a limit out of range', 'owner=alice&reference=r&limit=0', /limit/],
    ['six filters', `owner=alice&${SIX}`, /at most 5 filters/],
  ])('answers 400 and a message for %s', async (_what, query, message) => {
    const answer = await find(query);
    expect(answer.status).toBe(400);
    expect((answer.body as { error: string }).error).toMatch(message);
  });
});

const UUID = '3f2b1c9e-8d7a-4e6f-9b5c-1a2d3e4f5a6b';
const SIX = [1, 2, 3, 4, 5, 6].map((n) => `metadata.k${n}=v`).join('&');
