import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CreditFolder } from '../../../functions/domain/intake/posting';
import { createPostingStore } from '../../../functions/dynamodb/intake/posting-store';
import { Problem } from '../../../functions/schemas/shared';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/**
 * A reversal of a credit still pending in a deferred account (docs/contract.md §16, §24): found
 * by the soak (seed 5) answering `404 not_found` for the entry id the caller had just been
 * given. Now `409 credit_pending` with `Retry-After: 1`, not recorded: the retry under the same
 * key reverses it once the folder posted it.
 */
const fixture = useLedgerFixture();
const { api } = fixture;

describe('reversing a pending credit (docs/contract.md §24)', () => {
  it('answers 409 credit_pending with Retry-After, unrecorded; the retry after posting reverses it', async () => {
    const id = await api.accountWith({ creditIntake: 'deferred' });
    const credit = await api.post(`/v1/accounts/${id}/transactions`, {
      type: 'credit',
      amount: 2000,
      currency: 'EUR',
    });
    expect(credit.statusCode).toBe(201);
    const path = `/v1/accounts/${id}/transactions/${bodyOf(credit).id}/reversals`;
    const key = randomUUID();

    const early = await api.post(path, { amount: 1 }, key);
    expect(early.statusCode, early.body).toBe(409);
    expect(Problem.parse(JSON.parse(early.body)).code).toBe('credit_pending');
    expect(early.headers?.['retry-after']).toBe('1');
    // Not recorded: the same key still answers credit_pending until the credit is posted.
    expect((await api.post(path, { amount: 1 }, key)).statusCode).toBe(409);

    const folder = new CreditFolder(createPostingStore(fixture), { clock: () => new Date() });
    expect((await folder.postAll(id)).posted).toBe(1);
    const late = await api.post(path, { amount: 1 }, key);
    expect(late.statusCode, late.body).toBe(201);
    // A reversal of a credit debits the account: on the account item at once.
    expect(await api.money(id)).toEqual({ balance: 1999, available: 1999 });
  });

  it('still answers 404 for an entry id the account never had', async () => {
    const id = await api.accountWith({ creditIntake: 'deferred' });
    const res = await api.post(`/v1/accounts/${id}/transactions/${randomUUID()}/reversals`, {});
    expect(res.statusCode).toBe(404);
  });
});
