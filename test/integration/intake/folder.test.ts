import { randomUUID } from 'node:crypto';
import { GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BALANCE } from '../../../functions/domain/accounts/money';
import type { PendingCredit } from '../../../functions/domain/accounts/pending-credits';
import type { PostingPort } from '../../../functions/domain/intake/port';
import { CreditFolder } from '../../../functions/domain/intake/posting';
import { checkChain } from '../../../functions/domain/journal/chain';
import { createPostingStore } from '../../../functions/dynamodb/intake/posting-store';
import { createReconcileStore } from '../../../functions/dynamodb/reconciliation/store';
import { keys } from '../../../functions/dynamodb/table/keys';
import { intakeOf as intakeCounters } from '../../support/intake/intake';
import { type JournalFixture, startJournalFixture } from '../../support/journal/journal-fixture';
import { bodyOf } from '../../support/ledger-api';

/**
 * docs/contract.md §24 on DynamoDB Local: credits into a deferred account wait as pending
 * credits (the intake commands, over HTTP), the folder posts them — balance, version, entries,
 * pointers, gates, the journal with acceptedAt — and two folders on one account converge.
 */
let fixture: JournalFixture;
beforeAll(async () => {
  fixture = await startJournalFixture();
});
afterAll(() => fixture?.close());

const store = (onPost?: (chunk: readonly PendingCredit[]) => void): PostingPort => {
  const real = createPostingStore({ client: fixture.client, tableName: fixture.tableName });
  return {
    readPending: real.readPending,
    setAside: real.setAside,
    post: (accountId, chunk, at) => {
      onPost?.(chunk);
      return real.post(accountId, chunk, at);
    },
  };
};
const folder = (port = store()) => new CreditFolder(port, { clock: () => new Date() });

async function deferredWith(amounts: readonly number[]) {
  const id = await fixture.api.accountWith({ creditIntake: 'deferred' });
  const entries = await Promise.all(
    amounts.map(async (amount) => {
      const res = await fixture.api.post(`/v1/accounts/${id}/transactions`, {
        type: 'credit',
        amount,
        currency: 'EUR',
      });
      expect(res.statusCode).toBe(201);
      return bodyOf(res);
    }),
  );
  return { id, entries };
}

/** Pending items (counted) and the gates' counters of the account's intake partitions. */
async function intakeOf(accountId: string) {
  const read = await intakeCounters(fixture.client, fixture.tableName, accountId);
  return { pending: read.pending.length, counted: read.counted, accepted: read.accepted };
}

const pointerOf = async (entryId: string) =>
  (
    await fixture.client.send(
      new GetItemCommand({
        TableName: fixture.tableName,
        Key: marshall(keys.entryPointer(entryId)),
        ConsistentRead: true,
      }),
    )
  ).Item;

describe('the folder posts pending credits (docs/contract.md §24)', () => {
  it('posts every pending credit: balance, version, entries, pointers, gates, journal', async () => {
    const amounts = [5, 7, 11, 13, 17];
    const { id, entries } = await deferredWith(amounts);
    const source = await fixture.api.account(100);
    const transfer = await fixture.api.post('/v1/transfers', {
      fromAccountId: source,
      toAccountId: id,
      amount: 20,
      currency: 'EUR',
    });
    expect(transfer.statusCode).toBe(201);
    expect(await intakeOf(id)).toEqual({ pending: 6, counted: 6, accepted: 6 });

    const run = await folder().postAll(id);
    expect(run).toMatchObject({ posted: 6, finished: true });
    const account = bodyOf(await fixture.api.get(`/v1/accounts/${id}`));
    expect(account).toMatchObject({ balance: 73, available: 73, version: 6 });
    expect(await intakeOf(id)).toEqual({ pending: 0, counted: 0, accepted: 6 });
    const listed = await fixture.api.entries(id);
    expect(listed).toHaveLength(6);
    for (const entry of entries) {
      expect(listed.map((e) => e.id)).toContain(entry.id);
      expect(await pointerOf(String(entry.id))).toBeDefined();
    }

    const records = await fixture.api.caughtUp(id);
    expect(records.map((r) => r.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(records.map((r) => r.balanceAfter).at(-1)).toBe(73);
    expect(new Set(records.map((r) => r.kind))).toEqual(new Set(['credit', 'transfer_in']));
    const created = new Map(listed.map((e) => [e.id, e.createdAt]));
    for (const record of records) {
      expect(record.acceptedAt).toBe(created.get(record.entryId));
      expect(record.hash).toMatch(/^[0-9a-f]{64}$/);
    }
    // Posting order = journal order = oldest first.
    const acceptance = records.map((r) => `${r.acceptedAt}#${r.entryId}`);
    expect(acceptance).toEqual([...acceptance].sort());
    expect(checkChain(records, undefined).breaks).toEqual([]);
    // Nothing left: a second run posts nothing.
    expect(await folder().postAll(id)).toEqual({ posted: 0, finished: true });
  });

  it('splits more than 30 pending credits into chunks of at most 30', async () => {
    const { id } = await deferredWith(Array.from({ length: 45 }, (_, i) => i + 1));
    const chunks: number[] = [];
    await folder(store((chunk) => chunks.push(chunk.length))).postAll(id);
    expect(chunks).toEqual([30, 15]);
    expect(await fixture.api.money(id)).toEqual({ balance: 1035, available: 1035 });
    expect(await fixture.api.version(id)).toBe(45);
  });

  it('two folders on 70 pending credits converge: the exact balance, each entry once', async () => {
    const amounts = Array.from({ length: 70 }, (_, i) => 100 + i);
    const { id, entries } = await deferredWith(amounts);
    const runs = await Promise.all([folder().postAll(id), folder().postAll(id)]);
    expect(runs[0].posted + runs[1].posted).toBe(70);
    const total = amounts.reduce((a, b) => a + b, 0);
    expect(await fixture.api.money(id)).toEqual({ balance: total, available: total });
    expect(await fixture.api.version(id)).toBe(70);
    expect(await intakeOf(id)).toEqual({ pending: 0, counted: 0, accepted: 70 });
    const listed = await fixture.api.entries(id);
    expect(listed.map((e) => e.id).sort()).toEqual(entries.map((e) => e.id).sort());
    const records = await fixture.api.caughtUp(id);
    expect(records).toHaveLength(70);
    expect(new Set(records.map((r) => r.entryId)).size).toBe(70);
    expect(records.at(-1)?.balanceAfter).toBe(total);
  });

  it('a run that dies between chunks loses nothing: the redelivered message posts the rest', async () => {
    const amounts = Array.from({ length: 50 }, (_, i) => i + 1);
    const { id } = await deferredWith(amounts);
    let calls = 0;
    const dying = store(() => {
      calls += 1;
      if (calls === 2) throw new Error('SIGKILL between two chunks');
    });
    await expect(folder(dying).postAll(id)).rejects.toThrow('SIGKILL');
    expect(await fixture.api.version(id)).toBe(30);
    expect(await folder().postAll(id)).toMatchObject({ posted: 20, finished: true });
    expect(await fixture.api.money(id)).toEqual({ balance: 1275, available: 1275 });
    expect(await intakeOf(id)).toEqual({ pending: 0, counted: 0, accepted: 50 });
    expect(await fixture.api.entries(id)).toHaveLength(50);
  });

  it('sets aside credits refused for good (the balance cap), never posting them (§36)', async () => {
    const { id, entries } = await deferredWith([5, 6]);
    // An account at the ceiling: no credit can ever be posted to it.
    await fixture.client.send(
      new UpdateItemCommand({
        TableName: fixture.tableName,
        Key: marshall(keys.account(id)),
        UpdateExpression: 'SET #balance = :max',
        ExpressionAttributeNames: { '#balance': 'balance' },
        ExpressionAttributeValues: marshall({ ':max': MAX_BALANCE - 3 }),
      }),
    );
    const chunks: number[] = [];
    const run = await folder(store((chunk) => chunks.push(chunk.length))).postAll(id);
    expect(run).toMatchObject({ posted: 0, setAside: 2, finished: true });
    // The chunk, then each credit alone: both are refused and set aside.
    expect(chunks).toEqual([2, 1, 1]);
    expect(await intakeOf(id)).toMatchObject({ counted: 2, accepted: 2 });
    expect(await fixture.api.version(id)).toBe(0);
    const listed = bodyOf(await fixture.api.get(`/v1/accounts/${id}/pending-credits`));
    const items = (listed.items as { amount: number }[]).sort((x, y) => x.amount - y.amount);
    expect(items).toEqual([
      expect.objectContaining({ amount: 5, status: 'set_aside', reason: 'balance_limit_exceeded' }),
      expect.objectContaining({ amount: 6, status: 'set_aside', reason: 'balance_limit_exceeded' }),
    ]);
    // Set aside, the folder no longer reads them.
    expect(await folder().postAll(id)).toEqual({ posted: 0, finished: true });
    // A read by id answers the credit set aside, with why and when.
    const [five] = entries;
    const read = bodyOf(await fixture.api.get(`/v1/accounts/${id}/transactions/${five?.id}`));
    expect(read).toMatchObject({
      id: five?.id,
      amount: 5,
      status: 'set_aside',
      reason: 'balance_limit_exceeded',
      setAsideAt: expect.any(String),
    });
    // Each is a reconciler finding, written in the set-aside's own transaction.
    const reconcile = createReconcileStore({
      client: fixture.client,
      tableName: fixture.tableName,
    });
    const findings = (await reconcile.listFindings()).filter((f) => f.accountId === id);
    expect(findings.map((f) => [f.check, f.expected, f.actual, f.entryId]).sort()).toEqual(
      entries.map((e) => ['set_aside_credit', e.amount, 'balance_limit_exceeded', e.id]).sort(),
    );
    expect(findings[0]?.detail).toContain('intake resolve');
  });

  it('posts nothing for an account without pending credits or intake partitions', async () => {
    const direct = await fixture.api.account(10);
    expect(await folder().postAll(direct)).toEqual({ posted: 0, finished: true });
    expect(await folder().postAll(randomUUID())).toEqual({ posted: 0, finished: true });
  });
});
