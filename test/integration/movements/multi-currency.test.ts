import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sqsEvent, sqsRecord } from '../../../kit/ledger-events';
import { bodyOf } from '../../support/ledger-api';
import { leg } from '../../support/legs';
import { useLedgerFixture } from '../fixture';

/**
 * docs/contract.md §35, §36: a USD→EUR exchange as ONE ledger transaction over HTTP, an SQS
 * event and an atomic batch, and its reversal, against DynamoDB Local.
 */
const fixture = useLedgerFixture();
const { api, consume, deadLetters } = fixture;

const RATES = [{ base: 'USD', quote: 'EUR', rate: '0.9213' }];

/** A customer with 100.00 USD and an empty EUR account; the desk's two liquidity accounts. */
async function desk() {
  return {
    customerUsd: await api.account(10_000, 'USD'),
    customerEur: await api.account(0, 'EUR'),
    liquidityUsd: await api.account(0, 'USD'),
    liquidityEur: await api.account(50_000, 'EUR'),
  };
}
type Desk = Awaited<ReturnType<typeof desk>>;

/** 100.00 USD in, 92.13 EUR out: each currency balances on its own. */
const exchangeLegs = (d: Desk) => [
  leg(d.customerUsd, 'debit', 10_000, 'USD'),
  leg(d.liquidityUsd, 'credit', 10_000, 'USD'),
  leg(d.liquidityEur, 'debit', 9_213, 'EUR'),
  leg(d.customerEur, 'credit', 9_213, 'EUR'),
];
const postExchange = (body: Record<string, unknown>, key: string = randomUUID()) =>
  api.post('/v1/ledger-transactions', body, key);

async function expectExchanged(d: Desk) {
  expect(await api.money(d.customerUsd)).toEqual({ balance: 0, available: 0 });
  expect(await api.money(d.liquidityUsd)).toEqual({ balance: 10_000, available: 10_000 });
  expect(await api.money(d.liquidityEur)).toEqual({ balance: 40_787, available: 40_787 });
  expect(await api.money(d.customerEur)).toEqual({ balance: 9_213, available: 9_213 });
}

describe('a multi-currency ledger transaction over HTTP', () => {
  it('exchanges USD for EUR in one step, echoing what was sent, and replays it', async () => {
    const d = await desk();
    const body = { legs: exchangeLegs(d), rates: RATES, reference: 'fx-1' };
    const key = randomUUID();
    const res = await postExchange(body, key);
    expect(res.statusCode, res.body).toBe(201);
    const created = bodyOf(res);
    // No top-level currency was sent, so none is answered (§36); legs and rates are echoed.
    expect(created).not.toHaveProperty('currency');
    expect(created).toMatchObject({ legs: body.legs, rates: RATES, reference: 'fx-1' });
    await expectExchanged(d);
    const [usd] = await api.entries(d.customerUsd);
    const [eur] = await api.entries(d.customerEur);
    expect(usd).toMatchObject({ type: 'ledger_debit', currency: 'USD', amount: 10_000 });
    expect(eur).toMatchObject({ type: 'ledger_credit', currency: 'EUR', amount: 9_213 });
    expect(eur?.ledgerTransactionId).toBe(created.id);

    const replay = await postExchange(body, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.body).toBe(res.body);
    const read = bodyOf(await api.get(`/v1/ledger-transactions/${created.id}`));
    expect(read).toMatchObject({ legs: body.legs, rates: RATES, reversedAmount: 0 });
    expect(read).not.toHaveProperty('currency');
    await expectExchanged(d);
  });

  it('takes the top-level currency as the default of legs without one', async () => {
    const d = await desk();
    const legs = exchangeLegs(d).map(({ currency, ...rest }) =>
      currency === 'USD' ? rest : { ...rest, currency },
    );
    const res = await postExchange({ currency: 'USD', legs });
    expect(res.statusCode, res.body).toBe(201);
    expect(bodyOf(res)).toMatchObject({ currency: 'USD', legs });
    await expectExchanged(d);
  });

  it('refuses a leg in another currency than its account, naming the leg (recorded)', async () => {
    const d = await desk();
    const legs = exchangeLegs(d);
    const wrong = [
      legs[0],
      legs[1],
      { ...legs[2], currency: 'USD' },
      { ...legs[3], currency: 'USD' },
    ];
    const key = randomUUID();
    const res = await postExchange({ legs: wrong }, key);
    expect(res.statusCode).toBe(422);
    expect(bodyOf(res)).toMatchObject({
      code: 'currency_mismatch',
      detail: `legs[2] (account ${d.liquidityEur}) is in USD; the account holds EUR.`,
    });
    // Recorded: the same key answers the same, even with a corrected body it is reused.
    expect((await postExchange({ legs: wrong }, key)).body).toBe(res.body);
    expect(await api.money(d.customerUsd)).toEqual({ balance: 10_000, available: 10_000 });
  });

  it('balances per currency: names the first unbalanced one and lists each (not recorded)', async () => {
    const d = await desk();
    // 10,000 debited and credited overall, but neither currency balances on its own.
    const crossed = [
      leg(d.customerUsd, 'debit', 10_000, 'USD'),
      leg(d.customerEur, 'credit', 10_000, 'EUR'),
    ];
    const key = randomUUID();
    const res = await postExchange({ legs: crossed }, key);
    expect(res.statusCode).toBe(422);
    expect(bodyOf(res)).toMatchObject({
      code: 'legs_unbalanced',
      detail: 'The USD legs differ by 10000: debits 10000, credits 0 (debits exceed).',
      errors: [
        {
          path: 'legs',
          message: 'The USD legs differ by 10000: debits 10000, credits 0 (debits exceed).',
        },
        {
          path: 'legs',
          message: 'The EUR legs differ by 10000: debits 0, credits 10000 (credits exceed).',
        },
      ],
    });
    // Not recorded: the corrected body under the same key goes through.
    expect((await postExchange({ legs: exchangeLegs(d) }, key)).statusCode).toBe(201);
    await expectExchanged(d);
  });

  it('keeps the single-currency answer of unbalanced legs word for word', async () => {
    const [a, b] = [await api.account(100), await api.account()];
    const res = await api.ledgerTransaction([leg(a, 'debit', 10), leg(b, 'credit', 9)]);
    expect(res.statusCode).toBe(422);
    const problem = bodyOf(res);
    expect(problem.detail).toBe('The debits (10) and credits (9) differ.');
    expect(problem).not.toHaveProperty('errors');
  });

  it.each([
    [
      'a leg without any currency',
      (d: Desk) => ({
        legs: exchangeLegs(d).map(({ currency: _c, ...l }, i) =>
          i === 0 ? l : { ...l, currency: _c },
        ),
      }),
      'body.legs.0.currency',
    ],
    [
      'a rate of a pair the legs do not move',
      (d: Desk) => ({
        legs: exchangeLegs(d),
        rates: [{ base: 'USD', quote: 'GBP', rate: '0.79' }],
      }),
      'body.rates.0',
    ],
    [
      'a rate of zero',
      (d: Desk) => ({ legs: exchangeLegs(d), rates: [{ base: 'USD', quote: 'EUR', rate: '0.0' }] }),
      'body.rates.0.rate',
    ],
    [
      'a pair twice',
      (d: Desk) => ({
        legs: exchangeLegs(d),
        rates: [...RATES, { base: 'EUR', quote: 'USD', rate: '1.0854' }],
      }),
      'body.rates.1',
    ],
  ])('answers 400 validation_failed for %s', async (_name, bodyFor, path) => {
    const d = await desk();
    const res = await postExchange(bodyFor(d));
    expect(res.statusCode, res.body).toBe(400);
    const problem = bodyOf(res) as { code: string; errors: { path: string }[] };
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors.map((e) => e.path)).toContain(path);
  });

  it('reverses the exchange whole, each leg back in its own currency', async () => {
    const d = await desk();
    const created = bodyOf(await postExchange({ legs: exchangeLegs(d), rates: RATES }));
    const res = await api.post(`/v1/ledger-transactions/${created.id}/reversals`, {
      reference: 'undo',
    });
    expect(res.statusCode, res.body).toBe(201);
    const reversal = bodyOf(res);
    expect(reversal).toMatchObject({
      reversalOf: { kind: 'ledger_transaction', id: created.id },
      amounts: [
        { currency: 'USD', amount: 10_000 },
        { currency: 'EUR', amount: 9_213 },
      ],
    });
    expect(reversal).not.toHaveProperty('amount');
    expect(await api.money(d.customerUsd)).toEqual({ balance: 10_000, available: 10_000 });
    expect(await api.money(d.liquidityUsd)).toEqual({ balance: 0, available: 0 });
    expect(await api.money(d.liquidityEur)).toEqual({ balance: 50_000, available: 50_000 });
    expect(await api.money(d.customerEur)).toEqual({ balance: 0, available: 0 });
    const [back] = await api.entries(d.customerEur);
    expect(back).toMatchObject({
      type: 'reversal',
      currency: 'EUR',
      amount: 9_213,
      direction: 'debit',
    });
    const again = await api.post(`/v1/ledger-transactions/${created.id}/reversals`, {});
    expect(bodyOf(again).code).toBe('reversal_exceeds_original');
  });
});

describe('a multi-currency exchange as an SQS event and in an atomic batch', () => {
  const eventOf = (d: Desk, legs: ReturnType<typeof exchangeLegs>, rates = RATES) =>
    JSON.stringify({
      specversion: '1.0',
      id: randomUUID(),
      source: 'urn:producer:fx',
      type: 'ledger.transaction.v1',
      subject: d.customerUsd,
      time: '2026-11-29T10:00:00Z',
      data: { legs, ...(rates.length > 0 ? { rates } : {}), reference: 'fx-event' },
    });

  it('applies a ledger.transaction.v1 exchange, and dead-letters a leg in the wrong currency', async () => {
    const d = await desk();
    const body = eventOf(d, exchangeLegs(d));
    expect((await consume(sqsEvent(sqsRecord(body, 'm-1')))).batchItemFailures).toEqual([]);
    expect(deadLetters).toEqual([]);
    await expectExchanged(d);
    const [entry] = await api.entries(d.customerEur);
    const read = bodyOf(await api.get(`/v1/ledger-transactions/${entry?.ledgerTransactionId}`));
    expect(read).toMatchObject({ legs: exchangeLegs(d), rates: RATES });
    expect(read).not.toHaveProperty('currency');

    const e = await desk();
    const legs = exchangeLegs(e).map((l) =>
      l.accountId === e.customerEur ? { ...l, currency: 'USD' } : l,
    );
    // The EUR legs no longer balance alone: a schema error, poison before any write.
    await consume(sqsEvent(sqsRecord(eventOf(e, legs), 'm-2')));
    expect(deadLetters.map((l) => l.code)).toEqual(['schema_invalid']);
    // Balanced in USD, but the EUR account cannot take a USD leg: refused by the account.
    const mismatched = [
      leg(e.customerUsd, 'debit', 100, 'USD'),
      leg(e.customerEur, 'credit', 100, 'USD'),
    ];
    await consume(sqsEvent(sqsRecord(eventOf(e, mismatched, []), 'm-3')));
    expect(deadLetters.map((l) => l.code)).toEqual(['schema_invalid', 'currency_mismatch']);
    expect(deadLetters[1]?.detail).toContain(`legs[1] (account ${e.customerEur}) is in USD`);
    expect(await api.money(e.customerUsd)).toEqual({ balance: 10_000, available: 10_000 });
  });

  it('commits an exchange with other operations in one atomic batch, or none of them', async () => {
    const d = await desk();
    const operations = [
      {
        key: randomUUID(),
        op: 'credit',
        accountId: d.customerUsd,
        body: { type: 'credit', amount: 500, currency: 'USD' },
      },
      {
        key: randomUUID(),
        op: 'ledger_transaction',
        body: { legs: exchangeLegs(d), rates: RATES },
      },
    ];
    const res = await api.post('/v1/batches', { mode: 'atomic', operations });
    expect(res.statusCode, res.body).toBe(200);
    const results = bodyOf(res).results as { status: number; body: Record<string, unknown> }[];
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    expect(results[1]?.body).toMatchObject({ legs: exchangeLegs(d), rates: RATES });
    expect(await api.money(d.customerUsd)).toEqual({ balance: 500, available: 500 });
    expect(await api.money(d.customerEur)).toEqual({ balance: 9_213, available: 9_213 });

    const e = await desk();
    const crossed = [
      leg(e.customerUsd, 'debit', 100, 'USD'),
      leg(e.customerEur, 'credit', 100, 'EUR'),
    ];
    const refused = await api.post('/v1/batches', {
      mode: 'atomic',
      operations: [
        { key: randomUUID(), op: 'ledger_transaction', body: { legs: exchangeLegs(e) } },
        { key: randomUUID(), op: 'ledger_transaction', body: { legs: crossed } },
      ],
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(bodyOf(refused)).toMatchObject({
      code: 'batch_rejected',
      failedOperation: 1,
      cause: { status: 422, code: 'legs_unbalanced' },
    });
    expect(await api.money(e.customerUsd)).toEqual({ balance: 10_000, available: 10_000 });
    expect(await api.money(e.customerEur)).toEqual({ balance: 0, available: 0 });
  });
});
