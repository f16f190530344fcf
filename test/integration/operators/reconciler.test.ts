import {
  DeleteItemCommand,
  type DynamoDBClient,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../cli/run';
import type { Finding } from '../../../functions/domain/reconciliation/model';
import type { ReconcilePort } from '../../../functions/domain/reconciliation/port';
import { Reconciler } from '../../../functions/domain/reconciliation/service';
import { silentLog } from '../../../functions/domain/shared/log';
import {
  RECONCILE_SHARD_COUNT,
  reconcileShardOf,
} from '../../../functions/dynamodb/reconciliation/items';
import { createReconcileStore } from '../../../functions/dynamodb/reconciliation/store';
import { keys } from '../../../functions/dynamodb/table/keys';
import { getItem } from '../../../functions/dynamodb/table/reads';
import { composeReconciler } from '../../../functions/handlers/reconciler/compose';
import { dynamoEndpoint } from '../../support/dynamo-lease';
import type { journalApi } from '../../support/journal/journal';
import { startJournalFixture } from '../../support/journal/journal-fixture';
import { bodyOf } from '../../support/ledger-api';

/** docs/contract.md §19: the reconciler against a real table, its journal projected for real. */

let client: DynamoDBClient;
let tableName: string;
let api: ReturnType<typeof journalApi>;
let reconcile: ReturnType<typeof composeReconciler>;
let store: ReconcilePort;
let close: () => Promise<void>;

beforeAll(async () => {
  const fixture = await startJournalFixture();
  ({ client, tableName, api, close } = fixture);
  reconcile = composeReconciler({ dynamo: client, config: fixture.config, log: silentLog });
  store = createReconcileStore({ client, tableName });
});

afterAll(() => close?.());

const credit = (amount: number) => ({ type: 'credit', amount, currency: 'EUR' });
const of = (findings: readonly Finding[], accountId: string) =>
  findings
    .filter((f) => f.accountId === accountId)
    .map(({ check, expected, actual }) => ({
      check,
      expected,
      actual,
    }));

async function waitForMark(accountId: string) {
  const key = keys.reconcileMarker(reconcileShardOf(accountId), accountId);
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    if (await getItem(client, tableName, key)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no reconcile mark for ${accountId}`);
}

async function transfer(from: string, to: string, amount: number) {
  const res = await api.post('/v1/transfers', {
    fromAccountId: from,
    toAccountId: to,
    amount,
    currency: 'EUR',
  });
  expect(res.statusCode, res.body).toBe(201);
  return String(bodyOf(res).id);
}

async function hold(accountId: string, amount: number) {
  const res = await api.post(`/v1/accounts/${accountId}/holds`, {
    amount,
    currency: 'EUR',
    expiresInSeconds: 600,
  });
  expect(res.statusCode, res.body).toBe(201);
  return String(bodyOf(res).id);
}

describe('the reconciler on a clean ledger', () => {
  it('finds nothing after every kind of movement, and a second run reads no account', async () => {
    const [a, b, c] = [await api.account(5_000), await api.account(1_000), await api.account()];
    await transfer(a, b, 700);
    await transfer(b, a, 300);
    const captured = await hold(a, 400);
    expect((await api.post(`/v1/holds/${captured}/captures`, { amount: 250 })).statusCode).toBe(
      200,
    );
    await api.post(`/v1/holds/${await hold(a, 100)}/voids`, {});
    await hold(b, 60); // still active: reserved 60 on b
    const split = await api.post('/v1/ledger-transactions', {
      currency: 'EUR',
      legs: [
        { accountId: a, direction: 'debit', amount: 90 },
        { accountId: b, direction: 'credit', amount: 50 },
        { accountId: c, direction: 'credit', amount: 40 },
      ],
    });
    expect(split.statusCode, split.body).toBe(201);
    const refund = await api.post(`/v1/ledger-transactions/${bodyOf(split).id}/reversals`, {});
    expect(refund.statusCode, refund.body).toBe(201);
    await api.post(`/v1/accounts/${b}/transactions`, { ...credit(5), type: 'debit' });
    for (const account of [a, b, c]) await api.caughtUp(account);

    const first = await reconcile();
    expect(first.findings).toEqual([]);
    expect(first.accounts).toBeGreaterThanOrEqual(3);
    expect(first.records).toBeGreaterThanOrEqual(14);

    // Cost grows with changes since the last run: nothing changed, nothing is read.
    const second = await reconcile();
    expect({ accounts: second.accounts, records: second.records }).toEqual({
      accounts: 0,
      records: 0,
    });

    // One more change: only that account, only its new record.
    await api.post(`/v1/accounts/${c}/transactions`, credit(1));
    await api.caughtUp(c);
    const third = await reconcile();
    expect({ accounts: third.accounts, records: third.records, findings: third.findings }).toEqual({
      accounts: 1,
      records: 1,
      findings: [],
    });
  });
});

describe('the reconciler finds what was changed behind its back', () => {
  it('a balance changed by a direct UpdateItem: one balance finding, not repeated by a rerun', async () => {
    const a = await api.account(1_000);
    await api.caughtUp(a);
    // Checked clean first: its mark is cleared, so only the projector's new mark brings it back.
    expect(of((await reconcile()).findings, a)).toEqual([]);
    await client.send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: marshall(keys.account(a)),
        UpdateExpression: 'SET balance = balance + :n, available = available + :n',
        ExpressionAttributeValues: marshall({ ':n': 7 }),
      }),
    );
    // The projector sees the account change without a journaled change and marks it (§19).
    await waitForMark(a);
    const run = await reconcile();
    expect(of(run.findings, a)).toEqual([
      { check: 'balance', expected: '1000/1000', actual: '1007/1007' },
    ]);

    // The checkpoint lost, the same journal checked again: the finding is not written twice.
    await client.send(
      new DeleteItemCommand({ TableName: tableName, Key: marshall(keys.reconcileCheckpoint(a)) }),
    );
    await api.post(`/v1/accounts/${a}/transactions`, credit(3));
    await api.caughtUp(a);
    const rerun = await reconcile();
    // Record 2 continues the tampered balance: the journal's arithmetic breaks there.
    expect(of(rerun.findings, a)).toEqual([
      { check: 'journal', expected: '1003/1003', actual: '1010/1010' },
    ]);
    const listed = (await store.listFindings()).filter((f) => f.accountId === a);
    expect(listed.map((f) => [f.check, f.sequence])).toEqual([
      ['balance', 1],
      ['journal', 2],
    ]);
  });

  it('a hold whose release was lost: a holds finding', async () => {
    const a = await api.account(1_000);
    const id = await hold(a, 120);
    await api.caughtUp(a);
    // The hold says voided, but nothing gave the 120 back to `available`.
    const hold_ = await client.send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: marshall(keys.hold(id)),
        UpdateExpression: 'SET #s = :voided',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: marshall({ ':voided': 'voided' }),
        ReturnValues: 'ALL_NEW',
      }),
    );
    const createdAt = String(hold_.Attributes?.createdAt?.S);
    await client.send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: marshall(keys.holdRef(a, createdAt, id)),
        UpdateExpression: 'SET #s = :voided',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: marshall({ ':voided': 'voided' }),
      }),
    );
    const run = await reconcile();
    expect(of(run.findings, a)).toEqual([{ check: 'holds', expected: 0, actual: 120 }]);
  });

  it('a transfer with one leg removed: the missing entry, and both sides do not sum to zero', async () => {
    const [a, b] = [await api.account(1_000), await api.account()];
    const id = await transfer(a, b, 250);
    await api.caughtUp(a);
    const [incoming] = await api
      .caughtUp(b)
      .then((records) => records.filter((r) => r.transferId === id));
    const entry = (await api.entries(b)).find((e) => e.id === incoming?.entryId);
    expect(entry).toBeDefined();
    await client.send(
      new DeleteItemCommand({
        TableName: tableName,
        Key: marshall(keys.entry(b, String(entry?.createdAt), String(entry?.id))),
      }),
    );
    const run = await reconcile();
    expect(of(run.findings, a)).toEqual([
      { check: 'zero_sum', expected: '2 legs, sum 0', actual: '1 legs, sum -250' },
    ]);
    expect(of(run.findings, b)).toEqual([
      { check: 'entries', expected: 250, actual: 'missing' },
      { check: 'zero_sum', expected: '2 legs, sum 0', actual: '1 legs, sum -250' },
    ]);
  });

  it('a transfer and a ledger transaction into a deferred account sum to zero with their pending legs', async () => {
    const a = await api.account(1_000);
    const created = await api.post('/v1/accounts', { currency: 'EUR', creditIntake: 'deferred' });
    const d = String(bodyOf(created).id);
    await transfer(a, d, 40);
    const ledger = await api.post('/v1/ledger-transactions', {
      currency: 'EUR',
      legs: [
        { accountId: a, direction: 'debit', amount: 15 },
        { accountId: d, direction: 'credit', amount: 15 },
      ],
    });
    expect(ledger.statusCode, ledger.body).toBe(201);
    await api.caughtUp(a);
    const run = await reconcile();
    expect(of(run.findings, a)).toEqual([]);
  });

  it('a journal record removed: the gap in the journal', async () => {
    const a = await api.account(100);
    for (const amount of [1, 2, 3])
      await api.post(`/v1/accounts/${a}/transactions`, credit(amount));
    await api.caughtUp(a);
    await client.send(
      new DeleteItemCommand({ TableName: tableName, Key: marshall(keys.journalRecord(a, 3)) }),
    );
    const run = await reconcile();
    expect(of(run.findings, a)).toEqual([{ check: 'journal', expected: 3, actual: 4 }]);
  });
});

describe('a run that dies mid-way', () => {
  it('resumes from its checkpoints: the next run checks only what the first did not', async () => {
    const accounts = [await api.account(10), await api.account(20), await api.account(30)];
    for (const account of accounts) await api.caughtUp(account);
    let reads = 0;
    const dying: ReconcilePort = {
      ...store,
      async readRecords(accountId, from, to) {
        if (++reads === 2) throw new Error('killed');
        return store.readRecords(accountId, from, to);
      },
    };
    const options = { shardCount: RECONCILE_SHARD_COUNT, clock: () => new Date() };
    await expect(new Reconciler(dying, options).run()).rejects.toThrow('killed');
    const resumed = await new Reconciler(store, options).run();
    // Every marked account is finished by the second run, the first one's not read again.
    expect(resumed.findings).toEqual([]);
    expect(resumed.accounts).toBeGreaterThanOrEqual(2);
    expect(await new Reconciler(store, options).run()).toMatchObject({ accounts: 0, records: 0 });
  });
});

async function cli(...args: string[]) {
  const lines: string[] = [];
  const code = await runCli(
    ['reconcile', ...args, '--dynamodb', dynamoEndpoint(), '--table', tableName],
    {
      env: {},
      out: (line) => lines.push(line),
      err: (line) => lines.push(line),
      fetch,
      signal: new AbortController().signal,
    },
  );
  return { code, lines };
}

describe('npm run cli -- reconcile', () => {
  it('runs once, prints new findings and exits 1 for them; --findings lists every one', async () => {
    const a = await api.account(40);
    await api.caughtUp(a);
    // Checked clean first, so the only mark left is the one the projector writes for the edit.
    expect(of((await reconcile()).findings, a)).toEqual([]);
    await client.send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: marshall(keys.account(a)),
        UpdateExpression: 'SET balance = :b',
        ExpressionAttributeValues: marshall({ ':b': 41 }),
      }),
    );
    await waitForMark(a);
    const run = await cli();
    expect(run.code).toBe(1);
    // Only the balance was changed: it no longer matches the journal, nor what holds reserve.
    expect(run.lines.filter((l) => l.includes(a))).toEqual([
      expect.stringMatching(
        new RegExp(`^FINDING balance account ${a} at record 1: expected 40/40, got 41/40 — `),
      ),
      expect.stringMatching(
        new RegExp(`^FINDING holds account ${a} at record 1: expected 0, got 1 — `),
      ),
    ]);
    expect(run.lines.at(-1)).toMatch(
      /^reconciled \d+ account\(s\), \d+ journal record\(s\): \d+ new finding\(s\)$/,
    );

    const again = await cli();
    expect(again).toEqual({
      code: 0,
      lines: [
        expect.stringMatching(
          /^reconciled 0 account\(s\), 0 journal record\(s\): 0 new finding\(s\)$/,
        ),
      ],
    });

    const listed = await cli('--findings');
    expect(listed.code).toBe(1);
    expect(listed.lines.filter((l) => l.includes(a))).toHaveLength(2);
    expect(listed.lines.at(-1)).toMatch(new RegExp(`^\\d+ finding\\(s\\) in table ${tableName}$`));
  });
});
