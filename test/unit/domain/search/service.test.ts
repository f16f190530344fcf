import { describe, expect, it } from 'vitest';
import type { AccountRecord, LedgerEntry } from '../../../../functions/domain/accounts/model';
import { EVERY_ACCOUNT } from '../../../../functions/domain/search/model';
import { SearchService } from '../../../../functions/domain/search/service';
import { DomainError } from '../../../../functions/domain/shared/errors';
import { fakeSearchReadPort } from '../../../support/fakes/search';

/** Search (docs/contract.md §34): filters, the rarest first, ownership, indexedThrough. */
const at = '2026-01-01T00:00:00.000Z';
const account = (id: string, ownerId = 'alice'): AccountRecord => ({
  id,
  ownerId,
  currency: 'EUR',
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
const entry = (id: string): LedgerEntry => ({
  id,
  accountId: 'a1',
  type: 'credit',
  amount: 5,
  currency: 'EUR',
  metadata: { order: '42' },
  origin: 'http',
  createdAt: at,
  effectiveAt: at,
});
const order = { field: 'metadata.order', value: '42' };
const shop = { field: 'metadata.shop', value: 's1' };
const codeOf = async (work: Promise<unknown>) =>
  work.then(
    () => 'none',
    (error: unknown) => (error instanceof DomainError ? error.code : 'other'),
  );

describe('SearchService', () => {
  it('queries the rarest filter and checks the others over the copied pairs', async () => {
    const port = fakeSearchReadPort({
      counts: async () => [900, 3],
      query: async () => ({ hits: [{ id: 'e1', accountId: 'a1', sortAt: at }], nextCursor: 'c' }),
      entries: async () => [entry('e1')],
      accounts: async (ids) => ids.map((id) => account(id)),
    });
    const page = await new SearchService(port).transactions('alice', {
      filters: { pairs: [order, shop] },
      limit: 10,
    });
    expect(port.query).toHaveBeenCalledTimes(1);
    expect(port.query.mock.calls[0]?.[0]).toMatchObject({
      ownerId: 'alice',
      kind: 'entry',
      rarest: shop,
      others: [order],
      limit: 10,
    });
    expect(page).toEqual({
      items: [{ ...entry('e1'), reversedAmount: 0, status: 'posted' }],
      nextCursor: 'c',
      indexedThrough: null,
    });
  });

  it('answers nothing, without a Query, when a filter counts 0', async () => {
    const port = fakeSearchReadPort({ counts: async () => [5, 0] });
    const page = await new SearchService(port).transactions('alice', {
      filters: { pairs: [order, shop] },
      limit: 10,
    });
    expect(page.items).toEqual([]);
    expect(port.query).not.toHaveBeenCalled();
  });

  it('refuses transactions without a filter and more than 5 filters (400 validation_failed)', async () => {
    const service = new SearchService(fakeSearchReadPort());
    expect(await codeOf(service.transactions('alice', { filters: { pairs: [] }, limit: 5 }))).toBe(
      'validation_failed',
    );
    const six = Array.from({ length: 6 }, (_, i) => ({ field: `metadata.k${i}`, value: 'v' }));
    expect(await codeOf(service.transactions('alice', { filters: { pairs: six }, limit: 5 }))).toBe(
      'validation_failed',
    );
    const five = { pairs: six.slice(0, 5), name: 'x' };
    expect(await codeOf(service.accounts('alice', { filters: five, limit: 5 }))).toBe(
      'validation_failed',
    );
  });

  it('gives indexedThrough for an account of the caller, and 404 for anyone else’s', async () => {
    const port = fakeSearchReadPort({
      counts: async () => [1],
      account: async (id) => account(id, id === 'a1' ? 'alice' : 'bob'),
      readHead: async () => ({ sequence: 7, committedAt: at }),
    });
    const service = new SearchService(port);
    const mine = await service.transactions('alice', {
      filters: { pairs: [order], accountId: 'a1' },
      limit: 5,
    });
    expect(mine.indexedThrough).toBe(at);
    expect(port.query.mock.calls[0]?.[0].accountId).toBe('a1');
    const other = service.transactions('alice', {
      filters: { pairs: [order], accountId: 'a2' },
      limit: 5,
    });
    expect(await codeOf(other)).toBe('not_found');
  });

  it('lists every account of the owner without a filter, name as a lower-case prefix', async () => {
    const port = fakeSearchReadPort({
      query: async () => ({
        hits: [
          { id: 'a1', sortAt: at },
          { id: 'a2', sortAt: at },
        ],
        nextCursor: null,
      }),
      accounts: async (ids) => ids.map((id) => account(id, id === 'a1' ? 'alice' : 'bob')),
    });
    const page = await new SearchService(port).accounts('alice', {
      filters: { pairs: [], name: 'ShOp' },
      limit: 20,
    });
    expect(port.counts).not.toHaveBeenCalled();
    expect(port.query.mock.calls[0]?.[0]).toMatchObject({ rarest: EVERY_ACCOUNT, name: 'shop' });
    // An account that moved to another owner since it was indexed is not shown.
    expect(page.items.map((a) => a.id)).toEqual(['a1']);
    expect(page.items[0]).not.toHaveProperty('ownerId');
    expect(page.items[0]?.metadata).toEqual({ order: '42' });
    expect(page.indexedThrough).toBeNull();
  });

  it('shows no entry of an account that moved to another owner since it was indexed', async () => {
    const moved = { ...entry('e2'), accountId: 'a2' };
    const port = fakeSearchReadPort({
      counts: async () => [1],
      query: async () => ({
        hits: [
          { id: 'e1', accountId: 'a1', sortAt: at },
          { id: 'e2', accountId: 'a2', sortAt: at },
        ],
        nextCursor: null,
      }),
      entries: async () => [entry('e1'), moved],
      accounts: async (ids) => ids.map((id) => account(id, id === 'a1' ? 'alice' : 'bob')),
    });
    const page = await new SearchService(port).transactions('alice', {
      filters: { pairs: [order] },
      limit: 10,
    });
    expect(page.items.map((e) => e.id)).toEqual(['e1']);
    expect(port.accounts).toHaveBeenCalledWith(['a1', 'a2']);
  });
});
