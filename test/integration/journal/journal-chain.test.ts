import { randomUUID } from 'node:crypto';
import {
  DeleteItemCommand,
  type DynamoDBClient,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../cli/run';
import { chain, checkChain, pointOf } from '../../../functions/domain/journal/chain';
import type { JournalRecord } from '../../../functions/domain/journal/model';
import { silentLog } from '../../../functions/domain/shared/log';
import { JOURNAL_TIME_SK_PREFIX, keys } from '../../../functions/dynamodb/table/keys';
import { composeReconciler } from '../../../functions/handlers/reconciler/compose';
import { dynamoEndpoint } from '../../support/dynamo-lease';
import type { journalApi } from '../../support/journal/journal';
import { startJournalFixture } from '../../support/journal/journal-fixture';

/**
 * docs/contract.md §27 against a real table: every stored field of a record is covered by its
 * hash, `verify` finds an edit at its sequence, the reconciler reports it once, and the
 * projector goes on writing a sound chain after it.
 */
let client: DynamoDBClient;
let tableName: string;
let api: ReturnType<typeof journalApi>;
let reconcile: ReturnType<typeof composeReconciler>;
let close: () => Promise<void>;

beforeAll(async () => {
  const fixture = await startJournalFixture();
  ({ client, tableName, api, close } = fixture);
  reconcile = composeReconciler({ dynamo: client, config: fixture.config, log: silentLog });
});

afterAll(() => close?.());

async function verify(...args: string[]) {
  const lines: string[] = [];
  const code = await runCli(
    ['verify', ...args, '--dynamodb', dynamoEndpoint(), '--table', tableName],
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

/** An account with `n` changes, its journal caught up. */
async function journalOf(n: number): Promise<{ id: string; records: JournalRecord[] }> {
  const id = await api.account(1000);
  for (let i = 1; i < n; i++) {
    const res = await api.post(`/v1/accounts/${id}/transactions`, {
      type: i % 2 === 0 ? 'credit' : 'debit',
      amount: i,
      currency: 'EUR',
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  return { id, records: await api.caughtUp(id) };
}

/** Sets one attribute of the stored record `sequence` (or of its time-keyed copy). */
async function edit(id: string, sequence: number, name: string, value: unknown, copy = false) {
  let key = keys.journalRecord(id, sequence);
  if (copy) {
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :at)',
        ExpressionAttributeValues: marshall({ ':pk': key.pk, ':at': JOURNAL_TIME_SK_PREFIX }),
      }),
    );
    const found = Items.map((i) => unmarshall(i)).find((i) => i.sequence === sequence);
    key = { pk: key.pk, sk: String(found?.sk) };
  }
  await client.send(
    new UpdateItemCommand({
      TableName: tableName,
      Key: marshall(key),
      UpdateExpression: 'SET #n = :v',
      ExpressionAttributeNames: { '#n': name },
      ExpressionAttributeValues: marshall({ ':v': value }),
    }),
  );
}

describe('the journal hash chain on the table (docs/contract.md §27)', () => {
  it('verifies a sound journal: every record hashed, the first one starting the chain', async () => {
    const { id, records } = await journalOf(5);
    expect(records.every((r) => /^[0-9a-f]{64}$/.test(r.hash ?? ''))).toBe(true);
    expect(records.filter((r) => r.chainStart).map((r) => r.sequence)).toEqual([1]);
    expect(await verify('--account', id)).toEqual({ code: 0, lines: ['verified 5 record(s)'] });
  });

  it('breaks at the edited record whichever stored field is edited, an added one included', async () => {
    const { id, records } = await journalOf(4);
    const stored = records[2] as JournalRecord;
    const edits: [string, unknown][] = [
      ['balanceDelta', stored.balanceDelta + 1],
      ['availableAfter', stored.availableAfter + 1],
      ['committedAt', '2020-01-01T00:00:00.000Z'],
      ['change', 'credit'],
      ['entryId', randomUUID()],
      ['accountId', randomUUID()],
      ['hash', 'f'.repeat(64)],
      ['effectiveAt', '2026-01-01T00:00:00.000Z'],
    ];
    for (const [name, value] of edits) {
      const original = (stored as unknown as Record<string, unknown>)[
        name === 'change' ? 'kind' : name
      ];
      if (name === 'change' && original === 'credit') continue;
      await edit(id, 3, name, value);
      const run = await verify('--account', id);
      expect(run.code, name).toBe(1);
      expect(run.lines[0], name).toMatch(new RegExp(`^BROKEN account ${id} at sequence 3 `));
      if (original === undefined) {
        await client.send(
          new UpdateItemCommand({
            TableName: tableName,
            Key: marshall(keys.journalRecord(id, 3)),
            UpdateExpression: 'REMOVE #n',
            ExpressionAttributeNames: { '#n': name },
          }),
        );
      } else await edit(id, 3, name, original);
      expect((await verify('--account', id)).code, `${name} restored`).toBe(0);
    }
    await edit(id, 2, 'balanceAfter', 0, true);
    const copy = await verify('--account', id);
    expect(copy.lines[0]).toMatch(/at sequence 2 \(hash\): the time-keyed copy/);
  });

  it('is reported once by the reconciler, and the projector goes on soundly after it', async () => {
    const { id } = await journalOf(3);
    await edit(id, 2, 'committedAt', '2020-01-01T00:00:00.000Z');
    for (let i = 0; i < 3; i++) {
      await api.post(`/v1/accounts/${id}/transactions`, {
        type: 'credit',
        amount: 7,
        currency: 'EUR',
      });
    }
    const records = await api.caughtUp(id);
    expect(records).toHaveLength(6);
    // Later records link to the head's hash: only the edited one is broken.
    expect(checkChain(records.slice(2), pointOf(records[1] as JournalRecord)).breaks).toEqual([]);
    expect(checkChain(records, undefined).breaks.map((b) => b.sequence)).toEqual([2]);
    const run = await verify('--all');
    expect(run.code).toBe(1);
    expect(run.lines.filter((l) => l.includes(id))).toEqual([
      expect.stringMatching(new RegExp(`^BROKEN account ${id} at sequence 2 \\(hash\\)`)),
    ]);
    const first = (await reconcile()).findings.filter((f) => f.accountId === id);
    expect(first.map((f) => [f.check, f.sequence])).toEqual([['hash_chain', 2]]);
    await api.post(`/v1/accounts/${id}/transactions`, {
      type: 'credit',
      amount: 1,
      currency: 'EUR',
    });
    await api.caughtUp(id);
    // Checked incrementally from the checkpoint: the new record links to the stored hash.
    expect((await reconcile()).findings.filter((f) => f.accountId === id)).toEqual([]);
  });

  it('links to a checkpoint saved before the chain by reading its record once', async () => {
    const { id } = await journalOf(2);
    expect((await reconcile()).findings.filter((f) => f.accountId === id)).toEqual([]);
    // A checkpoint as the reconciler of the release before wrote it: no hash.
    await client.send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: marshall(keys.reconcileCheckpoint(id)),
        UpdateExpression: 'REMOVE #hash',
        ExpressionAttributeNames: { '#hash': 'hash' },
      }),
    );
    await api.post(`/v1/accounts/${id}/transactions`, {
      type: 'credit',
      amount: 3,
      currency: 'EUR',
    });
    await api.caughtUp(id);
    expect((await reconcile()).findings.filter((f) => f.accountId === id)).toEqual([]);
  });
});

/** The account's time-keyed copies as stored, in key order. */
async function copies(id: string): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await client.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :at)',
      ExpressionAttributeValues: marshall({
        ':pk': keys.journalHead(id).pk,
        ':at': JOURNAL_TIME_SK_PREFIX,
      }),
    }),
  );
  return Items.map((item) => unmarshall(item));
}

const put = (item: Record<string, unknown>) =>
  client.send(new PutItemCommand({ TableName: tableName, Item: marshall(item) }));

describe('verify over records and copies together (docs/contract.md §31)', () => {
  it('a copy deleted, duplicated or truncated is each a break at its record', async () => {
    const { id } = await journalOf(5);
    const [, second, third] = await copies(id);
    const sk = (copy: Record<string, unknown> | undefined) => ({ pk: copy?.pk, sk: copy?.sk });
    await client.send(new DeleteItemCommand({ TableName: tableName, Key: marshall(sk(second)) }));
    expect((await verify('--account', id)).lines[0]).toMatch(/at sequence 2 .*no time-keyed copy/);
    await put(second as Record<string, unknown>);
    const twin = { ...third, sk: `${String(third?.sk)}x` };
    await put(twin);
    expect((await verify('--account', id)).lines[0]).toMatch(/at sequence 3 /);
    await client.send(new DeleteItemCommand({ TableName: tableName, Key: marshall(sk(twin)) }));
    const { entryId: _cut, ...truncated } = third as Record<string, unknown>;
    await put(truncated);
    expect((await verify('--account', id)).lines[0]).toMatch(/at sequence 3 .*differs/);
    await put(third as Record<string, unknown>);
    expect((await verify('--account', id)).code).toBe(0);
  });

  it('a rewritten suffix is caught by verify and the reconciler through the checkpoint', async () => {
    const { id, records } = await journalOf(5);
    await reconcile();
    const forged = chain(
      records.slice(2).map((r) => ({ ...r, entryId: randomUUID() })),
      records[1],
    );
    const stored = await copies(id);
    for (const record of forged) {
      const { kind, ...rest } = record;
      const fields = { ...rest, change: kind };
      await put({ ...keys.journalRecord(id, record.sequence), kind: 'journal-record', ...fields });
      const copy = stored.find((c) => c.sequence === record.sequence);
      await put({ pk: copy?.pk, sk: copy?.sk, kind: 'journal-as-of', ...fields });
    }
    await client.send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: marshall(keys.journalHead(id)),
        UpdateExpression: 'SET #hash = :hash',
        ExpressionAttributeNames: { '#hash': 'hash' },
        ExpressionAttributeValues: marshall({ ':hash': forged.at(-1)?.hash }),
      }),
    );
    // The table alone holds together: only the hash kept outside the records tells.
    expect(checkChain(await api.caughtUp(id), undefined).breaks).toEqual([]);
    const run = await verify('--account', id);
    expect(run.lines[0]).toMatch(new RegExp(`^BROKEN account ${id} at sequence 5 .*rewritten`));
    // The next change marks the account: the reconciler compares its checkpoint on that run.
    await api.post(`/v1/accounts/${id}/transactions`, {
      type: 'credit',
      amount: 1,
      currency: 'EUR',
    });
    await api.caughtUp(id);
    const found = (await reconcile()).findings.filter((f) => f.accountId === id);
    expect(found.map((f) => [f.check, f.sequence])).toEqual([['hash_chain', 5]]);
  });

  it('a live journal under writes verifies clean', async () => {
    const { id } = await journalOf(3);
    let writing = true;
    const writes = (async () => {
      for (let i = 0; writing && i < 40; i++) {
        await api.post(`/v1/accounts/${id}/transactions`, {
          type: 'credit',
          amount: 1,
          currency: 'EUR',
        });
      }
    })();
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await verify('--account', id));
    writing = false;
    await writes;
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
  });
});
