import { randomUUID } from 'node:crypto';
import { type TransactWriteItem, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import type { AccountRecord, LedgerEntry } from '../../../functions/domain/accounts/model';
import { intakeShardOf } from '../../../functions/domain/accounts/pending-credits';
import {
  gateSyncItem,
  intakeItems,
  pendingCreditItem,
} from '../../../functions/dynamodb/intake/items';
import { Entry, PendingCreditPage, Transaction } from '../../../functions/schemas/accounts';
import { Problem } from '../../../functions/schemas/shared';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/**
 * Entries by id, pending credits and `status` on DynamoDB Local (docs/contract.md §24), with 3
 * intake shards. Pending credits are written as intake writes them (pendingCreditItem beside a
 * gate synced by gateSyncItem), so paging is tested on known acceptance times.
 */
const SHARDS = 3;
const fixture = useLedgerFixture({ config: { intakeShards: SHARDS } });
const { api } = fixture;

const codeOf = (res: { body: string }) => Problem.parse(JSON.parse(res.body)).code;

/** A random entry id that falls in `shard` (any shard when undefined). */
function idIn(shard: number | undefined): string {
  for (;;) {
    const id = randomUUID();
    if (shard === undefined || intakeShardOf(id, SHARDS) === shard) return id;
  }
}

/** A pending credit of `accountId` accepted at `acceptedAt`, in the shard its id falls in. */
function pendingOf(
  accountId: string,
  acceptedAt: string,
  extra: Partial<LedgerEntry> = {},
  shard?: number,
) {
  const entry: LedgerEntry = {
    id: idIn(shard),
    accountId,
    type: 'credit',
    amount: 10,
    currency: 'EUR',
    origin: 'http',
    createdAt: acceptedAt,
    effectiveAt: acceptedAt,
    ...extra,
  };
  return { entry, acceptedAt, shard: intakeShardOf(entry.id, SHARDS) };
}

async function writeIntake(account: AccountRecord, pending: ReturnType<typeof pendingOf>[]) {
  const items: TransactWriteItem[] = [
    ...Array.from({ length: SHARDS }, (_, shard) =>
      gateSyncItem(fixture.tableName, account, shard),
    ),
    ...pending.map((credit) => pendingCreditItem(fixture.tableName, credit)),
  ];
  for (let i = 0; i < items.length; i += 100) {
    await fixture.client.send(
      new TransactWriteItemsCommand({ TransactItems: items.slice(i, i + 100) }),
    );
  }
}

const recordOf = (id: string): AccountRecord => ({
  id,
  ownerId: 'alice',
  currency: 'EUR',
  balance: 0,
  available: 0,
  overdraftLimit: 0,
  status: 'open',
  creditIntake: 'deferred',
  intakeShards: SHARDS,
  version: 0,
  createdAt: 'x',
  updatedAt: 'x',
});

const listPending = (accountId: string, query: Record<string, string>, as = 'alice') =>
  api.get(`/v1/accounts/${accountId}/pending-credits`, as, query);

/** The Query commands `work` sends. */
async function queries<T>(work: () => Promise<T>): Promise<{ result: T; count: number }> {
  const name = `queries-${randomUUID()}`;
  let count = 0;
  fixture.client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'QueryCommand') count += 1;
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    return { result: await work(), count };
  } finally {
    fixture.client.middlewareStack.remove(name);
  }
}

describe('GET …/pending-credits (docs/contract.md §24)', () => {
  it('pages oldest first across every shard, one Query per shard per page, no empty last page', async () => {
    const id = await api.accountWith({ creditIntake: 'deferred' });
    const base = Date.parse('2026-11-01T00:00:00.000Z');
    const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
    // 11 credits over 9 instants: two pairs share one, ordered by entry id there.
    // Ids picked so every shard holds some (random ones left a shard empty 1 run in 20).
    const pending = [0, 1, 1, 2, 3, 4, 5, 5, 6, 7, 8].map((m, i) =>
      pendingOf(id, at(m), {}, i % SHARDS),
    );
    await writeIntake(recordOf(id), [...pending].reverse());
    const expected = [...pending]
      .sort(
        (a, b) => a.acceptedAt.localeCompare(b.acceptedAt) || a.entry.id.localeCompare(b.entry.id),
      )
      .map((credit) => credit.entry.id);
    expect(new Set(pending.map((credit) => credit.shard)).size).toBe(SHARDS);

    const seen: string[] = [];
    const pages: number[] = [];
    let cursor: string | undefined;
    do {
      const query = { limit: '4', ...(cursor ? { cursor } : {}) };
      const { result: res, count } = await queries(() => listPending(id, query));
      expect(res.statusCode).toBe(200);
      // The account read is a GetItem; the partitions are one Query each, and the first page
      // one more each for the set-aside credits that head it (§36).
      expect(count).toBe(cursor === undefined ? 2 * SHARDS : SHARDS);
      const page = PendingCreditPage.parse(bodyOf(res));
      seen.push(...page.items.map((item) => item.entryId));
      pages.push(page.items.length);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(expected);
    expect(pages).toEqual([4, 4, 3]);
  });

  it("lists a credit accepted behind a shard's cursor while paging before the run ends", async () => {
    const id = await api.accountWith({ creditIntake: 'deferred' });
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 0, minutes)).toISOString();
    const pending = [10, 20, 30, 40].map((m, i) => pendingOf(id, at(m), {}, i % 2));
    await writeIntake(recordOf(id), pending);
    // Accepted the way intake accepts (its gate counts it in), by a writer whose clock lags:
    // its sort key falls behind where shard 0 already stands.
    const late = pendingOf(id, at(5), {}, 0);
    const { gate, pending: item } = intakeItems(
      fixture.tableName,
      late.entry,
      { currency: 'EUR' },
      SHARDS,
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page === 0 || cursor; page++) {
      if (page === 2) {
        await fixture.client.send(new TransactWriteItemsCommand({ TransactItems: [gate, item] }));
      }
      const query = { limit: '1', ...(cursor ? { cursor } : {}) };
      const { result: res, count } = await queries(() => listPending(id, query));
      expect(count).toBe(cursor === undefined ? 2 * SHARDS : SHARDS);
      const body = PendingCreditPage.parse(bodyOf(res));
      seen.push(...body.items.map((credit) => credit.entryId));
      cursor = body.nextCursor ?? undefined;
    }
    // Every credit at least once, the late one too; the first listing of each is oldest first
    // except the late one, which comes after what was listed before it was accepted.
    const firsts = [...new Set(seen)];
    expect(firsts).toEqual([...pending.map((credit) => credit.entry.id), late.entry.id]);
  });

  it("shows each credit's amount, kind, times and the movement's ids, nothing else", async () => {
    const id = await api.accountWith({ creditIntake: 'deferred' });
    const transfer = pendingOf(id, '2026-11-02T00:00:00.000Z', {
      type: 'transfer_in',
      transferId: randomUUID(),
      counterpartyAccountId: randomUUID(),
      reference: 'rent',
      effectiveAt: '2026-11-01T00:00:00.000Z',
    });
    await writeIntake(recordOf(id), [transfer]);
    const [item] = PendingCreditPage.parse(bodyOf(await listPending(id, {}))).items;
    expect(item).toStrictEqual({
      entryId: transfer.entry.id,
      accountId: id,
      amount: 10,
      currency: 'EUR',
      kind: 'transfer_in',
      acceptedAt: '2026-11-02T00:00:00.000Z',
      effectiveAt: '2026-11-01T00:00:00.000Z',
      transferId: transfer.entry.transferId,
      reference: 'rent',
      status: 'pending',
    });
  });

  it('lists what intake accepted over HTTP; nothing for a direct account; 404 and 400', async () => {
    const id = await api.accountWith({ creditIntake: 'deferred' });
    const credit = { type: 'credit', amount: 75, currency: 'EUR', paymentId: 'p-1' };
    const posted = bodyOf(await api.post(`/v1/accounts/${id}/transactions`, credit));
    const page = PendingCreditPage.parse(bodyOf(await listPending(id, {})));
    expect(page.items).toEqual([
      expect.objectContaining({ entryId: posted.id, amount: 75, paymentId: 'p-1' }),
    ]);
    expect(page.nextCursor).toBeNull();

    const direct = await api.account(100);
    const { result, count } = await queries(() => listPending(direct, {}));
    expect(bodyOf(result)).toEqual({ items: [], nextCursor: null });
    expect(count).toBe(0);

    expect((await listPending(id, {}, 'mallory')).statusCode).toBe(404);
    expect((await listPending(randomUUID(), {})).statusCode).toBe(404);
    const bad = await listPending(id, { cursor: 'bm90LWEtY3Vyc29y' });
    expect([bad.statusCode, codeOf(bad)]).toEqual([400, 'validation_failed']);
  });
});

describe('GET …/transactions/{entryId} and status (docs/contract.md §24, §30)', () => {
  it('reads a posted entry as listed, with status posted; POST answers have no status', async () => {
    const id = await api.account();
    const credit = { type: 'credit', amount: 40, currency: 'EUR', reference: 'r1' };
    const res = await api.post(`/v1/accounts/${id}/transactions`, credit);
    const created = Transaction.parse(bodyOf(res));
    expect(bodyOf(res)).not.toHaveProperty('status');
    const read = await api.get(`/v1/accounts/${id}/transactions/${created.id}`);
    expect(read.statusCode).toBe(200);
    expect(Entry.parse(bodyOf(read))).toEqual({ ...created, reversedAmount: 0, status: 'posted' });
    const listed = await api.entries(id);
    expect(listed).toEqual([bodyOf(read)]);
    expect(listed.every((entry) => entry.status === 'posted')).toBe(true);
  });

  it('reads a pending credit by id with status pending, the body its POST answered', async () => {
    const id = await api.accountWith({ creditIntake: 'deferred' });
    const credit = { type: 'credit', amount: 40, currency: 'EUR' };
    const created = bodyOf(await api.post(`/v1/accounts/${id}/transactions`, credit));
    const read = await api.get(`/v1/accounts/${id}/transactions/${created.id}`);
    expect(read.statusCode).toBe(200);
    expect(bodyOf(read)).toEqual({ ...created, reversedAmount: 0, status: 'pending' });
    // Not listed among posted entries until the folder posts it.
    expect(await api.entries(id)).toEqual([]);

    const direct = pendingOf(id, '2026-11-03T00:00:00.000Z', { type: 'ledger_credit' });
    await writeIntake(recordOf(id), [direct]);
    const written = await api.get(`/v1/accounts/${id}/transactions/${direct.entry.id}`);
    expect(Entry.parse(bodyOf(written))).toMatchObject({
      type: 'ledger_credit',
      status: 'pending',
    });
  });

  it('answers 404 for another owner, a missing id, or an entry of another account', async () => {
    const id = await api.account(50);
    const [entry] = await api.entries(id);
    const path = `/v1/accounts/${id}/transactions/${String(entry?.id)}`;
    const foreign = await api.get(path, 'mallory');
    expect([foreign.statusCode, codeOf(foreign)]).toEqual([404, 'not_found']);
    expect((await api.get(`/v1/accounts/${id}/transactions/${randomUUID()}`)).statusCode).toBe(404);
    const other = await api.accountWith({ creditIntake: 'deferred' });
    expect(
      (await api.get(`/v1/accounts/${other}/transactions/${String(entry?.id)}`)).statusCode,
    ).toBe(404);
    expect((await api.get(`/v1/accounts/${id}/transactions/not-a-uuid`)).statusCode).toBe(400);
  });

  it('a credit after turning deferred is pending; after turning direct again it is posted', async () => {
    const id = await api.account();
    await api.post(`/v1/accounts/${id}/settings`, { creditIntake: 'deferred' });
    const credit = { type: 'credit', amount: 5, currency: 'EUR' };
    const first = bodyOf(await api.post(`/v1/accounts/${id}/transactions`, credit));
    expect(bodyOf(await api.get(`/v1/accounts/${id}/transactions/${first.id}`)).status).toBe(
      'pending',
    );
    await api.post(`/v1/accounts/${id}/settings`, { creditIntake: 'direct' });
    const second = bodyOf(await api.post(`/v1/accounts/${id}/transactions`, credit));
    expect(bodyOf(await api.get(`/v1/accounts/${id}/transactions/${second.id}`)).status).toBe(
      'posted',
    );
    expect(bodyOf(await api.get(`/v1/accounts/${id}`))).toMatchObject({ balance: 5 });
    const pending = PendingCreditPage.parse(bodyOf(await listPending(id, {})));
    expect(pending.items.map((item) => item.entryId)).toEqual([first.id]);
  });
});
