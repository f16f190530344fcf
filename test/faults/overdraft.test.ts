import { describe, expect, it } from 'vitest';
import { createAccount, ledgerPerFile, postUntilFinal } from './support/ledger';

/** 30 concurrent debits against 10 debits' worth of money: exactly 10 may win. */
const ledgerOf = ledgerPerFile(10);

const DEBIT = 100;
const COVERED = 10;
const RACERS = 30;

describe.each([
  { faults: 'no faults', lossRate: 0 },
  { faults: '30 % lost responses', lossRate: 0.3 },
])('overdraft race with $faults', ({ lossRate }) => {
  it('lets exactly 10 of 30 concurrent debits through and never goes negative', async () => {
    const ledger = ledgerOf();
    const accountId = await createAccount(ledger.app);
    const path = `/v1/accounts/${accountId}/transactions`;
    const funded = await postUntilFinal(ledger.app, path, `fund-${accountId}`, {
      type: 'credit',
      amount: DEBIT * COVERED,
      currency: 'EUR',
    });
    expect(funded.result.statusCode).toBe(201);

    ledger.proxy.loseTransactResponses(lossRate);
    const observed: number[] = [];
    let racing = true;
    const sampler = (async () => {
      for (let i = 0; racing && i < 500; i++) observed.push(await ledger.verify.balance(accountId));
    })();
    const outcomes = await Promise.all(
      Array.from({ length: RACERS }, (_, i) =>
        postUntilFinal(ledger.app, path, `race-${accountId}-${i}`, {
          type: 'debit',
          amount: DEBIT,
          currency: 'EUR',
        }),
      ),
    );
    racing = false;
    await sampler;
    ledger.proxy.loseTransactResponses(0);

    const statuses = outcomes.map((o) => o.result.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(COVERED);
    const rejected = outcomes.filter((o) => o.result.statusCode !== 201);
    expect(rejected).toHaveLength(RACERS - COVERED);
    for (const { result } of rejected) {
      expect(result.statusCode).toBe(409);
      expect(JSON.parse(result.body)).toMatchObject({ code: 'insufficient_funds' });
    }
    expect(await ledger.verify.balance(accountId)).toBe(0);
    expect(observed.every((balance) => balance >= 0)).toBe(true);
    const debits = (await ledger.verify.entries(accountId)).filter((e) => e.type === 'debit');
    expect(debits).toHaveLength(COVERED);
  });
});
