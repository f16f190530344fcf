import { describe, expect, it } from 'vitest';
import { DEFAULT_INTAKE_SHARDS } from '../../../functions/domain/accounts/model';
import { intakeShardOf } from '../../../functions/domain/accounts/pending-credits';
import { CreditFolder } from '../../../functions/domain/intake/posting';
import { createPostingStore } from '../../../functions/dynamodb/intake/posting-store';
import { Problem } from '../../../functions/schemas/shared';
import { intakePartition, intakeOf as readIntake } from '../../support/intake/intake';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

const fixture = useLedgerFixture();
const { api } = fixture;

const codeOf = (res: { body: string }) => Problem.parse(JSON.parse(res.body)).code;
const deferredAccount = () => api.accountWith({ creditIntake: 'deferred' });
const credit = (accountId: string, amount: number, extra: Record<string, unknown> = {}) =>
  api.post(`/v1/accounts/${accountId}/transactions`, {
    type: 'credit',
    amount,
    currency: 'EUR',
    ...extra,
  });

const partition = (accountId: string, shard: number) =>
  intakePartition(fixture.client, fixture.tableName, accountId, shard);
const intakeOf = (accountId: string) => readIntake(fixture.client, fixture.tableName, accountId);

describe('deferred credits: intake (docs/contract.md §24)', () => {
  it('creates a deferred account with a gate per intake shard, shown on reads', async () => {
    const id = await deferredAccount();
    const read = bodyOf(await api.get(`/v1/accounts/${id}`));
    expect(read).toMatchObject({ creditIntake: 'deferred', balance: 0, version: 0 });
    expect(read).not.toHaveProperty('intakeShards');
    for (let shard = 0; shard < DEFAULT_INTAKE_SHARDS; shard += 1) {
      const [gate] = await partition(id, shard);
      expect(gate).toMatchObject({ sk: 'GATE', creditIntake: 'deferred', accepted: 0 });
    }
    const direct = bodyOf(await api.get(`/v1/accounts/${await api.account()}`));
    expect(direct.creditIntake).toBe('direct');
  });

  it('accepts a credit as a pending credit: the answer as for a direct one, the account untouched', async () => {
    const id = await deferredAccount();
    const res = await credit(id, 250, { reference: 'fee-1' });
    expect(res.statusCode).toBe(201);
    const entry = bodyOf(res);
    expect(entry).toMatchObject({ accountId: id, type: 'credit', amount: 250, reference: 'fee-1' });
    expect(entry).not.toHaveProperty('status');
    expect(bodyOf(await api.get(`/v1/accounts/${id}`))).toMatchObject({ balance: 0, version: 0 });
    const { pending, counted, accepted } = await intakeOf(id);
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({
      kind: 'pending-credit',
      entryId: entry.id,
      acceptedAt: entry.createdAt,
      shard: intakeShardOf(String(entry.id), DEFAULT_INTAKE_SHARDS),
      entry: { id: entry.id, amount: 250, effectiveAt: entry.createdAt },
    });
    expect({ counted, accepted }).toEqual({ counted: 1, accepted: 1 });
  });

  it('defers many credits and replays a retried one without a second pending credit', async () => {
    const id = await deferredAccount();
    const key = 'k-retried';
    const body = { type: 'credit', amount: 5, currency: 'EUR' };
    const first = await api.post(`/v1/accounts/${id}/transactions`, body, key);
    const again = await api.post(`/v1/accounts/${id}/transactions`, body, key);
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.body).toBe(first.body);
    await Promise.all(Array.from({ length: 12 }, () => credit(id, 1)));
    const { pending, counted } = await intakeOf(id);
    expect(pending).toHaveLength(13);
    expect(counted).toBe(13);
  });

  it('defers the credited side of a transfer from a direct account; the debit is posted', async () => {
    const [from, to] = [await api.account(1_000), await deferredAccount()];
    const res = await api.post('/v1/transfers', {
      fromAccountId: from,
      toAccountId: to,
      amount: 300,
      currency: 'EUR',
    });
    expect(res.statusCode).toBe(201);
    expect(await api.money(from)).toEqual({ balance: 700, available: 700 });
    expect(await api.money(to)).toEqual({ balance: 0, available: 0 });
    const { pending } = await intakeOf(to);
    expect(pending.map((p) => p.entry)).toMatchObject([
      { type: 'transfer_in', amount: 300, transferId: bodyOf(res).id },
    ]);
  });

  it("defers a ledger transaction's credit legs and posts its debit legs", async () => {
    const [a, b] = [await api.account(500), await deferredAccount()];
    const res = await api.ledgerTransaction([
      { accountId: a, direction: 'debit', amount: 120 },
      { accountId: b, direction: 'credit', amount: 120 },
    ]);
    expect(res.statusCode).toBe(201);
    expect(await api.money(a)).toEqual({ balance: 380, available: 380 });
    const { pending } = await intakeOf(b);
    expect(pending.map((p) => p.entry)).toMatchObject([{ type: 'ledger_credit', amount: 120 }]);
  });

  it('refuses through the gate as the account would: another currency, another owner', async () => {
    const id = await deferredAccount();
    const usd = await api.post(`/v1/accounts/${id}/transactions`, {
      type: 'credit',
      amount: 1,
      currency: 'USD',
    });
    expect(usd.statusCode).toBe(422);
    expect(codeOf(usd)).toBe('currency_mismatch');
    const foreign = await api.post(
      `/v1/accounts/${id}/transactions`,
      { type: 'credit', amount: 1, currency: 'EUR' },
      undefined,
      'mallory',
    );
    expect(foreign.statusCode).toBe(404);
    expect((await intakeOf(id)).pending).toHaveLength(0);
  });

  it('lets debits see posted money only: a pending credit cannot be spent', async () => {
    const id = await deferredAccount();
    expect((await credit(id, 100)).statusCode).toBe(201);
    const debit = await api.post(`/v1/accounts/${id}/transactions`, {
      type: 'debit',
      amount: 1,
      currency: 'EUR',
    });
    expect(debit.statusCode).toBe(409);
    expect(codeOf(debit)).toBe('insufficient_funds');
  });

  it('refuses to close while pending credits wait: 409 account_not_empty, recorded', async () => {
    const id = await deferredAccount();
    expect((await credit(id, 7)).statusCode).toBe(201);
    const key = 'close-while-pending';
    const res = await api.post(`/v1/accounts/${id}/close`, {}, key);
    expect(res.statusCode).toBe(409);
    expect(codeOf(res)).toBe('account_not_empty');
    expect(bodyOf(await api.get(`/v1/accounts/${id}`)).status).toBe('open');
    expect((await api.post(`/v1/accounts/${id}/close`, {}, key)).body).toBe(res.body);
  });

  it('closes an empty deferred account and its gates: a later credit is account_closed', async () => {
    const id = await deferredAccount();
    expect((await api.post(`/v1/accounts/${id}/close`, {})).statusCode).toBe(200);
    for (let shard = 0; shard < DEFAULT_INTAKE_SHARDS; shard += 1) {
      expect((await partition(id, shard))[0]).toMatchObject({ status: 'closed' });
    }
    const late = await credit(id, 1);
    expect(late.statusCode).toBe(409);
    expect(codeOf(late)).toBe('account_closed');
    expect((await intakeOf(id)).pending).toHaveLength(0);
  });

  it('refuses a period close over a pending credit (pending_credits); a later one closes', async () => {
    const id = await deferredAccount();
    const accepted = bodyOf(await credit(id, 3));
    const over = await api.post(`/v1/accounts/${id}/period-closes`, {
      through: new Date().toISOString(),
    });
    expect(over.statusCode).toBe(409);
    expect(codeOf(over)).toBe('pending_credits');
    expect(bodyOf(await api.get(`/v1/accounts/${id}`))).not.toHaveProperty('closedThrough');
    const before = new Date(Date.parse(String(accepted.createdAt)) - 1).toISOString();
    const res = await api.post(`/v1/accounts/${id}/period-closes`, { through: before });
    expect(res.statusCode).toBe(200);
    expect(bodyOf(res).closedThrough).toBe(before);
    // The refused close left the gates fenced through its own instant (§36): never lowered.
    for (let shard = 0; shard < DEFAULT_INTAKE_SHARDS; shard += 1) {
      const [gate] = await partition(id, shard);
      expect(String(gate?.closedThrough) >= before).toBe(true);
    }
    // The gates refuse a backdated credit into the closed period, as the account would.
    const backdated = await credit(id, 1, { effectiveAt: before });
    expect(backdated.statusCode).toBe(409);
    expect(codeOf(backdated)).toBe('period_closed');
  });

  it("defers a reversal's leg that gives money back: a reversed debit waits as a pending credit", async () => {
    const id = await deferredAccount();
    expect((await credit(id, 100)).statusCode).toBe(201);
    const folder = new CreditFolder(createPostingStore(fixture), { clock: () => new Date() });
    expect((await folder.postAll(id)).posted).toBe(1);
    const debit = await api.post(`/v1/accounts/${id}/transactions`, {
      type: 'debit',
      amount: 30,
      currency: 'EUR',
    });
    expect(debit.statusCode).toBe(201);
    const reversal = await api.post(
      `/v1/accounts/${id}/transactions/${bodyOf(debit).id}/reversals`,
      {},
    );
    expect(reversal.statusCode, reversal.body).toBe(201);
    expect(await api.money(id)).toEqual({ balance: 70, available: 70 });
    const { pending } = await intakeOf(id);
    expect(pending.map((p) => p.entry)).toMatchObject([
      { type: 'reversal', direction: 'credit', amount: 30 },
    ]);
    await folder.postAll(id);
    expect(await api.money(id)).toEqual({ balance: 100, available: 100 });
  });
});
