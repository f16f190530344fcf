import { describe, expect, it } from 'vitest';
import {
  amountsByCurrency,
  currenciesOf,
  isMultiCurrency,
  legCurrency,
  rateIssues,
  sumsByCurrency,
  unbalancedCurrencies,
} from '../../../../functions/domain/accounts/ledger-currencies';
import { LegsUnbalancedError } from '../../../../functions/domain/ledger-transactions/errors';
import { CreateLedgerTransactionBody } from '../../../../functions/schemas/ledger-transactions';

/** docs/contract.md §35, §36: per-leg currencies, per-currency balance, recorded rates. */
const A = '22222222-2222-4222-8222-222222222222';
const B = '33333333-3333-4333-8333-333333333333';
const C = '44444444-4444-4444-8444-444444444444';
const D = '55555555-5555-4555-8555-555555555555';

const exchange = {
  legs: [
    { accountId: A, direction: 'debit' as const, amount: 10_000, currency: 'USD' },
    { accountId: B, direction: 'credit' as const, amount: 10_000, currency: 'USD' },
    { accountId: C, direction: 'debit' as const, amount: 9_213, currency: 'EUR' },
    { accountId: D, direction: 'credit' as const, amount: 9_213, currency: 'EUR' },
  ],
};

describe('currencies of a ledger transaction', () => {
  it('takes a leg’s own currency, else the default', () => {
    expect(legCurrency({ currency: 'EUR' }, { direction: 'debit', amount: 1 })).toBe('EUR');
    expect(
      legCurrency({ currency: 'EUR' }, { direction: 'debit', amount: 1, currency: 'USD' }),
    ).toBe('USD');
    expect(currenciesOf(exchange)).toEqual(['USD', 'EUR']);
    expect(isMultiCurrency(exchange)).toBe(true);
    expect(
      isMultiCurrency({
        currency: 'EUR',
        legs: exchange.legs.slice(0, 2).map(({ currency: _c, ...l }) => l),
      }),
    ).toBe(false);
  });

  it('balances per currency, never across them', () => {
    expect(unbalancedCurrencies(exchange)).toEqual([]);
    // Σ debits = Σ credits overall, but neither currency balances.
    const crossed = {
      legs: [
        { direction: 'debit' as const, amount: 100, currency: 'USD' },
        { direction: 'credit' as const, amount: 100, currency: 'EUR' },
      ],
    };
    expect(unbalancedCurrencies(crossed)).toEqual([
      { currency: 'USD', debits: 100, credits: 0 },
      { currency: 'EUR', debits: 0, credits: 100 },
    ]);
    expect(sumsByCurrency(exchange)).toEqual([
      { currency: 'USD', debits: 10_000, credits: 10_000 },
      { currency: 'EUR', debits: 9_213, credits: 9_213 },
    ]);
    expect(amountsByCurrency(exchange)).toEqual([
      { currency: 'USD', amount: 10_000 },
      { currency: 'EUR', amount: 9_213 },
    ]);
  });

  it('answers one unbalanced currency as always, several by the first with errors for all', () => {
    const single = new LegsUnbalancedError([{ currency: 'EUR', debits: 10, credits: 9 }], false);
    expect(single.detail).toBe('The debits (10) and credits (9) differ.');
    expect(single.errors).toEqual([]);
    const multi = new LegsUnbalancedError(
      [
        { currency: 'USD', debits: 100, credits: 0 },
        { currency: 'EUR', debits: 0, credits: 100 },
      ],
      true,
    );
    expect(multi.detail).toBe('The USD legs differ by 100: debits 100, credits 0 (debits exceed).');
    expect(multi.errors.map((e) => e.message)).toEqual([
      'The USD legs differ by 100: debits 100, credits 0 (debits exceed).',
      'The EUR legs differ by 100: debits 0, credits 100 (credits exceed).',
    ]);
  });

  it('refuses a zero rate, base = quote, a pair twice and a pair without legs', () => {
    const currencies = ['USD', 'EUR'];
    expect(rateIssues([{ base: 'USD', quote: 'EUR', rate: '0.9213' }], currencies)).toEqual([]);
    const issues = rateIssues(
      [
        { base: 'USD', quote: 'EUR', rate: '0.000' },
        { base: 'USD', quote: 'USD', rate: '1' },
        { base: 'EUR', quote: 'USD', rate: '1.0854' },
        { base: 'USD', quote: 'GBP', rate: '0.79' },
      ],
      currencies,
    );
    expect(issues.map(({ index, field }) => [index, field])).toEqual([
      [0, 'rate'],
      [1, 'quote'],
      [2, undefined],
      [3, undefined],
    ]);
    expect(issues[3]?.message).toMatch(/no legs in both USD and GBP/);
  });
});

describe('the body schema (§35)', () => {
  const parse = (body: unknown) => CreateLedgerTransactionBody.safeParse(body);
  const paths = (body: unknown) => {
    const result = parse(body);
    return result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
  };

  it('accepts legs that each name a currency, without a top-level one', () => {
    expect(parse(exchange).success).toBe(true);
    expect(
      parse({ ...exchange, rates: [{ base: 'USD', quote: 'EUR', rate: '0.9213' }] }).success,
    ).toBe(true);
  });

  it('needs a currency for every leg, from the leg or the default', () => {
    const [first, ...rest] = exchange.legs;
    if (!first) throw new Error('the exchange has legs');
    const { currency: _none, ...bare } = first;
    expect(paths({ legs: [bare, ...rest] })).toEqual(['legs.0.currency']);
    expect(paths({ currency: 'USD', legs: [bare, ...rest] })).toEqual([]);
  });

  it('refuses malformed rates, more than 4, and a pair the legs do not move', () => {
    const rate = (r: string, base = 'USD', quote = 'EUR') => ({ base, quote, rate: r });
    expect(paths({ ...exchange, rates: [rate('1e3')] })).toEqual(['rates.0.rate']);
    expect(paths({ ...exchange, rates: [rate('-1')] })).toEqual(['rates.0.rate']);
    expect(paths({ ...exchange, rates: [rate('1234567890123')] })).toEqual(['rates.0.rate']);
    expect(paths({ ...exchange, rates: [rate('0.1', 'USD', 'JPY')] })).toEqual(['rates.0']);
    expect(paths({ ...exchange, rates: Array.from({ length: 5 }, () => rate('1')) })).toEqual([
      'rates',
    ]);
    expect(paths({ ...exchange, rates: [] })).toEqual(['rates']);
  });
});
