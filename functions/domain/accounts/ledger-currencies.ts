import type { Direction } from './model';

/**
 * Multi-currency ledger transactions (docs/contract.md §35, §36): each leg may name its own
 * currency, the top-level one is the default; the legs balance per currency; `rates` are
 * recorded for audit and never used to convert. Pure rules, shared by the schemas, the
 * services, the reversal, the reconciler and the model test.
 */

/** At most this many `rates` on one transaction. */
export const MAX_RATES = 4;

/** A rate as a decimal string: up to 12 digits, optionally up to 12 decimals (§36). */
export const RATE_PATTERN = /^\d{1,12}(\.\d{1,12})?$/;

/** One recorded exchange rate: 1 `base` = `rate` `quote`. */
export interface ExchangeRate {
  readonly base: string;
  readonly quote: string;
  readonly rate: string;
}

/** The money-moving part of a leg: its own `currency` only when the caller gave one. */
export interface CurrencyLeg {
  readonly direction: Direction;
  readonly amount: number;
  readonly currency?: string;
}

/** A transaction as far as currencies go: the top-level default and the legs. */
export interface CurrencyTransaction {
  readonly currency?: string;
  readonly legs: readonly CurrencyLeg[];
}

/**
 * A leg's currency: its own, else the transaction's. The schemas refuse a body where neither
 * is given, so the empty string never reaches a write (an account never holds it either).
 */
export const legCurrency = (tx: { readonly currency?: string }, leg: CurrencyLeg): string =>
  leg.currency ?? tx.currency ?? '';

/** The distinct currencies of the legs, in leg order. */
export function currenciesOf(tx: CurrencyTransaction): string[] {
  return [...new Set(tx.legs.map((leg) => legCurrency(tx, leg)))];
}

/** True when the legs move more than one currency. */
export const isMultiCurrency = (tx: CurrencyTransaction): boolean => currenciesOf(tx).length > 1;

/** Σ debits and Σ credits of one currency. */
export interface CurrencySums {
  readonly currency: string;
  readonly debits: number;
  readonly credits: number;
}

/** Σ debits and Σ credits per currency, currencies in leg order. */
export function sumsByCurrency(tx: CurrencyTransaction): CurrencySums[] {
  const sums = new Map<string, { debits: number; credits: number }>();
  for (const leg of tx.legs) {
    const currency = legCurrency(tx, leg);
    const sum = sums.get(currency) ?? { debits: 0, credits: 0 };
    if (leg.direction === 'debit') sum.debits += leg.amount;
    else sum.credits += leg.amount;
    sums.set(currency, sum);
  }
  return [...sums].map(([currency, sum]) => ({ currency, ...sum }));
}

/** The currencies whose debits and credits differ, in leg order (empty: balanced). */
export const unbalancedCurrencies = (tx: CurrencyTransaction): CurrencySums[] =>
  sumsByCurrency(tx).filter((sum) => sum.debits !== sum.credits);

/** What one currency's legs lack to balance, as a sentence (`legs_unbalanced`, §35). */
export function unbalancedSentence(sum: CurrencySums): string {
  const difference = Math.abs(sum.debits - sum.credits);
  const more = sum.debits > sum.credits ? 'debits' : 'credits';
  return (
    `The ${sum.currency} legs differ by ${difference}: debits ${sum.debits}, ` +
    `credits ${sum.credits} (${more} exceed).`
  );
}

/**
 * What a reversal of the transaction moves back per currency, in leg order: the sum of each
 * currency's debit legs (§36: a multi-currency reversal answers `amounts`).
 */
export const amountsByCurrency = (
  tx: CurrencyTransaction,
): { readonly currency: string; readonly amount: number }[] =>
  sumsByCurrency(tx).map(({ currency, debits }) => ({ currency, amount: debits }));

/**
 * Why rates that match RATE_PATTERN are refused for these leg currencies, by index (§35,
 * §36): zero, base = quote, a pair twice, a pair without legs in both currencies.
 */
export function rateIssues(
  rates: readonly ExchangeRate[],
  currencies: readonly string[],
): { readonly index: number; readonly field?: 'rate' | 'quote'; readonly message: string }[] {
  const issues: { index: number; field?: 'rate' | 'quote'; message: string }[] = [];
  const pairs = new Set<string>();
  rates.forEach((rate, index) => {
    // The schema checks RATE_PATTERN; a rate of only zeros matches it.
    if (!/[1-9]/.test(rate.rate)) {
      issues.push({ index, field: 'rate', message: 'must be greater than 0' });
    }
    if (rate.base === rate.quote) {
      issues.push({ index, field: 'quote', message: 'must differ from base' });
      return;
    }
    // A pair is the two currencies, whichever is the base: USD/EUR and EUR/USD are one pair.
    const pair = [rate.base, rate.quote].sort().join('/');
    if (pairs.has(pair)) issues.push({ index, message: `the pair ${pair} is given twice` });
    pairs.add(pair);
    if (!currencies.includes(rate.base) || !currencies.includes(rate.quote)) {
      issues.push({
        index,
        message: `no legs in both ${rate.base} and ${rate.quote}: a rate must name two currencies the legs move`,
      });
    }
  });
  return issues;
}
