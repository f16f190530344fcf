import { randomUUID } from 'node:crypto';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INTAKE_SHARDS } from '../../../functions/domain/accounts/model';
import type { IdempotencyClaim } from '../../../functions/domain/idempotency/port';
import { createSettingsStore } from '../../../functions/dynamodb/accounts/settings';
import { keys } from '../../../functions/dynamodb/table/keys';
import { Account } from '../../../functions/schemas/accounts';
import { Problem } from '../../../functions/schemas/shared';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/** `POST /v1/accounts/{accountId}/settings` on DynamoDB Local (docs/contract.md §24). */
const fixture = useLedgerFixture();
const { api } = fixture;

const codeOf = (res: { body: string }) => Problem.parse(JSON.parse(res.body)).code;
const settings = (accountId: string, body: unknown, key = randomUUID(), as = 'alice') =>
  api.post(`/v1/accounts/${accountId}/settings`, body, key, as);

async function accountItem(accountId: string) {
  const { Item } = await fixture.client.send(
    new GetItemCommand({
      TableName: fixture.tableName,
      Key: marshall(keys.account(accountId)),
      ConsistentRead: true,
    }),
  );
  return Item ? unmarshall(Item) : undefined;
}

/** The DynamoDB commands `work` sends (a transaction with its item count). */
let sent: string[] = [];
async function counting<T>(work: () => Promise<T>): Promise<T> {
  const name = `count-${randomUUID()}`;
  sent = [];
  fixture.client.middlewareStack.add(
    (next, context) => async (args) => {
      const items = (args.input as { TransactItems?: unknown[] }).TransactItems;
      sent.push(`${context.commandName}${items ? `:${items.length}` : ''}`);
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    return await work();
  } finally {
    fixture.client.middlewareStack.remove(name);
  }
}

/** The account's gates, one past the default shard count to see none extra is written. */
async function gates(accountId: string) {
  const found: Record<string, unknown>[] = [];
  for (let shard = 0; shard < DEFAULT_INTAKE_SHARDS + 1; shard += 1) {
    const { Item } = await fixture.client.send(
      new GetItemCommand({
        TableName: fixture.tableName,
        Key: marshall(keys.intakeGate(accountId, shard)),
        ConsistentRead: true,
      }),
    );
    if (Item) found.push(unmarshall(Item));
  }
  return found;
}

describe('account settings (docs/contract.md §24)', () => {
  it('turns an account deferred: intakeShards and every gate in the same write, no version', async () => {
    const id = await api.account(500);
    expect(await gates(id)).toEqual([]);
    const res = await counting(() => settings(id, { creditIntake: 'deferred' }));
    expect(res.statusCode).toBe(200);
    // One read, then ONE transaction: the claim, the account and a gate per shard.
    expect(sent).toEqual([
      'BatchGetItemCommand',
      `TransactWriteItemsCommand:${2 + DEFAULT_INTAKE_SHARDS}`,
    ]);
    const account = Account.parse(bodyOf(res));
    expect(account).toMatchObject({ creditIntake: 'deferred', balance: 500, version: 1 });
    expect(bodyOf(res)).not.toHaveProperty('intakeShards');
    expect(bodyOf(await api.get(`/v1/accounts/${id}`))).toEqual(bodyOf(res));
    expect(await accountItem(id)).toMatchObject({ intakeShards: DEFAULT_INTAKE_SHARDS });
    const written = await gates(id);
    expect(written.map((gate) => gate.pk)).toEqual(
      Array.from({ length: DEFAULT_INTAKE_SHARDS }, (_, shard) => keys.intakeGate(id, shard).pk),
    );
    for (const gate of written) {
      expect(gate).toMatchObject({
        creditIntake: 'deferred',
        ownerId: 'alice',
        currency: 'EUR',
        status: 'open',
        accepted: 0,
      });
    }
    // Turning direct keeps the shards and tells every gate.
    const direct = await settings(id, { creditIntake: 'direct' });
    expect(bodyOf(direct)).toMatchObject({ creditIntake: 'direct', version: 1 });
    expect(await accountItem(id)).toMatchObject({ intakeShards: DEFAULT_INTAKE_SHARDS });
    expect((await gates(id)).map((gate) => gate.creditIntake)).toEqual(
      Array(DEFAULT_INTAKE_SHARDS).fill('direct'),
    );
  });

  it('moves spendable by the overdraft difference and refuses a limit below what is drawn', async () => {
    const id = await api.accountWith({ overdraftLimit: 100 }, 20);
    const debit = { type: 'debit', amount: 80, currency: 'EUR' };
    expect((await api.post(`/v1/accounts/${id}/transactions`, debit)).statusCode).toBe(201);
    expect(await accountItem(id)).toMatchObject({ available: -60, spendable: 40 });

    const raised = await settings(id, { overdraftLimit: 300 });
    expect(bodyOf(raised)).toMatchObject({ overdraftLimit: 300, available: -60 });
    expect(await accountItem(id)).toMatchObject({ spendable: 240 });
    // The new limit is what a debit draws on: 240 passes, one more does not.
    const more = { type: 'debit', amount: 241, currency: 'EUR' };
    expect(codeOf(await api.post(`/v1/accounts/${id}/transactions`, more))).toBe(
      'insufficient_funds',
    );

    const key = randomUUID();
    const below = await settings(id, { overdraftLimit: 59 }, key);
    expect([below.statusCode, codeOf(below)]).toEqual([409, 'insufficient_funds']);
    // Recorded: the same key replays the refusal even once the limit would fit.
    const replay = await settings(id, { overdraftLimit: 59 }, key);
    expect(replay.body).toBe(below.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');

    const exact = await settings(id, { overdraftLimit: 60 });
    expect(bodyOf(exact)).toMatchObject({ overdraftLimit: 60 });
    expect(await accountItem(id)).toMatchObject({ spendable: 0, version: 2 });
  });

  it('replays the first answer under its key and refuses the key with another body', async () => {
    const id = await api.account();
    const key = randomUUID();
    const first = await settings(id, { overdraftLimit: 10 }, key);
    await settings(id, { overdraftLimit: 20 });
    const again = await settings(id, { overdraftLimit: 10 }, key);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(codeOf(await settings(id, { overdraftLimit: 30 }, key))).toBe('idempotency_key_reused');
    expect(bodyOf(await api.get(`/v1/accounts/${id}`))).toMatchObject({ overdraftLimit: 20 });
  });

  it('answers 400 without a field, 404 for another owner or no account, 409 when closed', async () => {
    const id = await api.account();
    for (const body of [{}, { creditIntake: 'later' }, { overdraftLimit: -1 }, { other: 1 }]) {
      const res = await settings(id, body);
      expect([res.statusCode, codeOf(res)], JSON.stringify(body)).toEqual([
        400,
        'validation_failed',
      ]);
    }
    const foreign = await settings(id, { overdraftLimit: 5 }, randomUUID(), 'mallory');
    expect([foreign.statusCode, codeOf(foreign)]).toEqual([404, 'not_found']);
    const missing = await settings(randomUUID(), { overdraftLimit: 5 });
    expect(missing.statusCode).toBe(404);

    expect((await api.post(`/v1/accounts/${id}/close`, {})).statusCode).toBe(200);
    const closed = await settings(id, { creditIntake: 'deferred' });
    expect([closed.statusCode, codeOf(closed)]).toEqual([409, 'account_closed']);
    expect(await gates(id)).toEqual([]);
  });

  it('answers the same values as they are, changing nothing', async () => {
    const id = await api.accountWith({ overdraftLimit: 7 });
    const before = await accountItem(id);
    const res = await settings(id, { overdraftLimit: 7, creditIntake: 'direct' });
    expect(bodyOf(res)).toMatchObject({ overdraftLimit: 7, updatedAt: before?.updatedAt });
    expect(await accountItem(id)).toEqual(before);
  });
});

describe('the settings write is conditioned on the account as read', () => {
  const claimOf = (): IdempotencyClaim => ({
    scopeId: randomUUID(),
    fingerprint: 'f',
    nowSeconds: Math.floor(Date.now() / 1000),
    expiresAt: Math.floor(Date.now() / 1000) + 60,
    response: { statusCode: 200, body: '{}' },
  });

  it('reports a moved account after a movement, a period close or another settings change', async () => {
    const store = createSettingsStore({ client: fixture.client, tableName: fixture.tableName });
    const changes: [string, (id: string) => Promise<unknown>][] = [
      [
        'a credit',
        (id) =>
          api.post(`/v1/accounts/${id}/transactions`, {
            type: 'credit',
            amount: 1,
            currency: 'EUR',
          }),
      ],
      [
        'a period close',
        (id) =>
          api.post(`/v1/accounts/${id}/period-closes`, {
            through: new Date(Date.now() - 60_000).toISOString(),
          }),
      ],
      ['a settings change', (id) => settings(id, { overdraftLimit: 3 })],
    ];
    for (const [what, change] of changes) {
      const id = await api.account(10);
      const read = await store.getAccount(id);
      if (!read) throw new Error('no account');
      await change(id);
      const next = { ...read, creditIntake: 'deferred' as const, intakeShards: 2, updatedAt: 'z' };
      expect(await store.updateSettings(claimOf(), read, next, true), what).toEqual({
        kind: 'account_moved',
      });
      expect(await gates(id), what).toEqual([]);
      const fresh = await store.getAccount(id);
      if (!fresh) throw new Error('no account');
      const retried = {
        ...fresh,
        creditIntake: 'deferred' as const,
        intakeShards: 2,
        updatedAt: 'z',
      };
      expect(await store.updateSettings(claimOf(), fresh, retried, true)).toEqual({
        kind: 'committed',
      });
      expect(await gates(id)).toHaveLength(2);
    }
  });
});
