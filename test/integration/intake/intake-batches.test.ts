import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Batch } from '../../../functions/schemas/batches';
import { intakeOf } from '../../support/intake/intake';
import { useLedgerFixture } from '../fixture';

/** Batches into a deferred account (docs/contract.md §24, §25): both modes take intake. */

const fixture = useLedgerFixture();
const { api } = fixture;

const credit = (accountId: string, amount: number) => ({
  key: randomUUID(),
  op: 'credit',
  accountId,
  body: { type: 'credit', amount, currency: 'EUR' },
});
const transfer = (from: string, to: string, amount: number) => ({
  key: randomUUID(),
  op: 'transfer',
  body: { fromAccountId: from, toAccountId: to, amount, currency: 'EUR' },
});
const batch = (mode: string, operations: unknown[]) =>
  api.post('/v1/batches', { mode, operations });
const statusesOf = (res: { body: string }) =>
  Batch.parse(JSON.parse(res.body)).results.map((r) => r.status);
const pendingOf = (accountId: string) => intakeOf(fixture.client, fixture.tableName, accountId);

describe.each(['atomic', 'independent'])('a %s batch into a deferred account', (mode) => {
  it('accepts every credit to it as a pending credit and posts the rest', async () => {
    const [direct, deferred] = [
      await api.account(100),
      await api.accountWith({ creditIntake: 'deferred' }),
    ];
    const res = await batch(mode, [
      credit(deferred, 5),
      transfer(direct, deferred, 30),
      credit(direct, 1),
      credit(deferred, 7),
      credit(deferred, 9),
    ]);
    expect(res.statusCode).toBe(200);
    expect(statusesOf(res)).toEqual([201, 201, 201, 201, 201]);
    expect(await api.money(direct)).toEqual({ balance: 71, available: 71 });
    expect(await api.money(deferred)).toEqual({ balance: 0, available: 0 });
    const { pending, counted, accepted } = await pendingOf(deferred);
    const amounts = pending
      .map((p) => (p.entry as { amount: number }).amount)
      .sort((a, b) => a - b);
    expect(amounts).toEqual([5, 7, 9, 30]);
    expect({ counted, accepted }).toEqual({ counted: 4, accepted: 4 });
  });
});
