import { randomUUID } from 'node:crypto';
import { GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { httpResponses } from '../../../functions/api/problems';
import { DEFAULT_INTAKE_SHARDS } from '../../../functions/domain/accounts/model';
import { CreditFolder } from '../../../functions/domain/intake/posting';
import type { StatementPort } from '../../../functions/domain/statements/port';
import { StatementService } from '../../../functions/domain/statements/service';
import { createPostingStore } from '../../../functions/dynamodb/intake/posting-store';
import { resolveSetAside } from '../../../functions/dynamodb/intake/resolve';
import { createStatementStore } from '../../../functions/dynamodb/statements/store';
import { keys } from '../../../functions/dynamodb/table/keys';
import { Problem } from '../../../functions/schemas/shared';
import { intakeOf, intakePartition } from '../../support/intake/intake';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/**
 * Period closes on deferred accounts (docs/contract.md §26, §33, §36) on DynamoDB Local: the
 * gates are fenced first, so credits in flight never cancel a close, and a close racing a switch
 * to `deferred` never admits a credit into the closed period.
 */
const fixture = useLedgerFixture();
const { api } = fixture;

const codeOf = (res: { body: string }) => Problem.parse(JSON.parse(res.body)).code;
const secondsAgo = (s: number) => new Date(Date.now() - s * 1000).toISOString();
const credit = (accountId: string, amount: number, extra: Record<string, unknown> = {}) =>
  api.post(`/v1/accounts/${accountId}/transactions`, {
    type: 'credit',
    amount,
    currency: 'EUR',
    ...extra,
  });
const closeThrough = (accountId: string, through: string) =>
  api.post(`/v1/accounts/${accountId}/period-closes`, { through });
const postAll = (accountId: string) =>
  new CreditFolder(createPostingStore(fixture), { clock: () => new Date() }).postAll(accountId);
const gatesOf = (accountId: string) =>
  Promise.all(
    Array.from({ length: DEFAULT_INTAKE_SHARDS }, async (_, shard) => {
      const [gate] = await intakePartition(fixture.client, fixture.tableName, accountId, shard);
      return gate;
    }),
  );

type EffectiveRead = Awaited<ReturnType<StatementPort['getEffectiveAccount']>>;

/**
 * The close service over the real store, with `race` run once, between the close's first read
 * of the account and its write (what another request does meanwhile); `onRead` after each read.
 */
function closeRacing(
  race: (read: EffectiveRead) => Promise<void>,
  onRead: () => void = () => {},
): StatementService {
  const real = createStatementStore(fixture);
  let raced = false;
  const port: StatementPort = {
    ...real,
    async getEffectiveAccount(accountId) {
      const read = await real.getEffectiveAccount(accountId);
      onRead();
      if (!raced) {
        raced = true;
        await race(read);
      }
      return read;
    },
  };
  return new StatementService(port, {
    idempotencyRetentionSeconds: 3600,
    responses: httpResponses,
    newId: randomUUID,
    readers: [],
  });
}

describe('period closes on deferred accounts (docs/contract.md §26)', () => {
  it('closes while 50 credits are in flight: 200, the gates fenced, every credit posted', async () => {
    const id = await api.accountWith({ creditIntake: 'deferred' });
    const through = secondsAgo(1);
    // 50 senders keep a credit in flight each until the close has answered.
    let closing = true;
    let started: () => void = () => undefined;
    const flowing = new Promise<void>((resolve) => {
      started = resolve;
    });
    const statuses: number[] = [];
    const senders = Array.from({ length: 50 }, async () => {
      for (let sent = 0; sent < 10 && (closing || sent === 0); sent += 1) {
        statuses.push((await credit(id, 2)).statusCode);
        if (statuses.length === 5) started();
      }
    });
    await flowing;
    const close = await closeThrough(id, through);
    closing = false;
    await Promise.all(senders);
    expect(close.statusCode).toBe(200);
    expect(bodyOf(close)).toMatchObject({ closedThrough: through, creditIntake: 'deferred' });
    expect(statuses.filter((status) => status !== 201)).toEqual([]);
    for (const gate of await gatesOf(id)) expect(gate).toMatchObject({ closedThrough: through });
    const backdated = await credit(id, 1, { effectiveAt: through });
    expect(codeOf(backdated)).toBe('period_closed');
    await postAll(id);
    expect(bodyOf(await api.get(`/v1/accounts/${id}`))).toMatchObject({
      balance: 2 * statuses.length,
      closedThrough: through,
    });
  }, 60_000);

  it('a close racing a switch to deferred admits no credit into the closed period', async () => {
    const id = await api.account();
    const through = secondsAgo(10);
    // Between the close's read (direct) and its write, the account turns deferred and a
    // credit back-dated into the period is accepted through a gate.
    const service = closeRacing(async () => {
      const switched = await api.post(`/v1/accounts/${id}/settings`, {
        creditIntake: 'deferred',
      });
      expect(switched.statusCode).toBe(200);
      expect((await credit(id, 7, { effectiveAt: secondsAgo(20) })).statusCode).toBe(201);
    });
    const ctx = { principal: 'alice', idempotencyKey: randomUUID(), now: new Date() };
    const close = await service.closePeriod(ctx, id, through, { through });
    expect(close.statusCode).toBe(409);
    expect(codeOf(close)).toBe('pending_credits');
    expect(bodyOf(await api.get(`/v1/accounts/${id}`))).not.toHaveProperty('closedThrough');
    // The gates stay fenced: no further credit lands in the period.
    expect(codeOf(await credit(id, 1, { effectiveAt: secondsAgo(15) }))).toBe('period_closed');
    // Once the back-dated credit is posted, a close through the same instant succeeds.
    await postAll(id);
    expect((await intakeOf(fixture.client, fixture.tableName, id)).pending).toHaveLength(0);
    const again = await closeThrough(id, through);
    expect(again.statusCode).toBe(200);
    expect(bodyOf(again)).toMatchObject({ closedThrough: through, balance: 7 });
  });

  it('a close that raced a switch to deferred retries, answers the account as written, replays it', async () => {
    const id = await api.account();
    const through = secondsAgo(10);
    let reads = 0;
    // Between the close's first read (direct) and its write, the account turns deferred; no
    // credit comes. The write, conditioned on the mode read, fails; the close reads again.
    const service = closeRacing(
      async (read) => {
        expect(read?.account.creditIntake ?? 'direct').toBe('direct');
        const switched = await api.post(`/v1/accounts/${id}/settings`, {
          creditIntake: 'deferred',
        });
        expect(switched.statusCode).toBe(200);
      },
      () => {
        reads += 1;
      },
    );
    const key = randomUUID();
    const close = await service.closePeriod(
      { principal: 'alice', idempotencyKey: key, now: new Date() },
      id,
      through,
      { through },
    );
    expect(close.statusCode).toBe(200);
    expect(reads).toBe(2);
    // As written: deferred, and every gate of the shards the switch fixed fenced first.
    const stored = await fixture.client.send(
      new GetItemCommand({
        TableName: fixture.tableName,
        Key: marshall(keys.account(id)),
        ConsistentRead: true,
      }),
    );
    const account = unmarshall(stored.Item ?? {});
    expect(account).toMatchObject({
      creditIntake: 'deferred',
      intakeShards: DEFAULT_INTAKE_SHARDS,
      closedThrough: through,
    });
    const answered = JSON.parse(close.body);
    expect(answered).toMatchObject({ creditIntake: 'deferred', closedThrough: through });
    expect(answered).toEqual(bodyOf(await api.get(`/v1/accounts/${id}`)));
    const gates = await gatesOf(id);
    expect(gates).toHaveLength(DEFAULT_INTAKE_SHARDS);
    for (const gate of gates) expect(gate).toMatchObject({ closedThrough: through });
    // A retry under the same key, over HTTP: the same answer, byte for byte.
    const retry = await api.post(`/v1/accounts/${id}/period-closes`, { through }, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(close.body);
  });

  it('sets aside a credit in a closed period; later credits post; closes still wait (§36)', async () => {
    const id = await api.accountWith({ creditIntake: 'deferred' });
    expect((await credit(id, 3, { effectiveAt: secondsAgo(120) })).statusCode).toBe(201);
    expect((await credit(id, 4)).statusCode).toBe(201);
    // A period closed over the first credit behind its gate (what a lost race leaves).
    await fixture.client.send(
      new UpdateItemCommand({
        TableName: fixture.tableName,
        Key: marshall(keys.account(id)),
        UpdateExpression: 'SET #closedThrough = :through',
        ExpressionAttributeNames: { '#closedThrough': 'closedThrough' },
        ExpressionAttributeValues: marshall({ ':through': secondsAgo(60) }),
      }),
    );
    expect(await postAll(id)).toMatchObject({ posted: 1, setAside: 1, finished: true });
    expect(await api.money(id)).toEqual({ balance: 4, available: 4 });
    const listed = bodyOf(await api.get(`/v1/accounts/${id}/pending-credits`));
    expect(listed.items).toEqual([
      expect.objectContaining({ amount: 3, status: 'set_aside', reason: 'period_closed' }),
    ]);
    expect(await postAll(id)).toEqual({ posted: 0, finished: true });
    const close = await closeThrough(id, secondsAgo(30));
    expect(close.statusCode).toBe(409);
    expect(codeOf(close)).toBe('pending_credits');
    // `intake resolve`: only after closedThrough, then the folder posts it.
    const entryId = String((listed.items as { entryId: string }[])[0]?.entryId);
    const resolve = (at: string) => resolveSetAside(fixture, id, entryId, at);
    expect(await resolve(secondsAgo(90))).toMatchObject({ kind: 'not_after_close' });
    expect(await resolve(secondsAgo(0))).toEqual({ kind: 'resolved' });
    expect(await resolve(secondsAgo(0))).toEqual({ kind: 'not_found' });
    expect(await postAll(id)).toMatchObject({ posted: 1, finished: true });
    expect(await api.money(id)).toEqual({ balance: 7, available: 7 });
    expect((await closeThrough(id, secondsAgo(30))).statusCode).toBe(200);
  });
});
