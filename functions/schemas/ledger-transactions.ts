import * as z from 'zod';
import {
  type CurrencyTransaction,
  currenciesOf,
  type ExchangeRate,
  MAX_RATES,
  RATE_PATTERN,
  rateIssues,
} from '../domain/accounts/ledger-currencies';
import { MAX_LEGS, MIN_LEGS } from '../domain/accounts/ledger-transaction-record';
import { lazySchema } from './lazy';
import { Amount, Currency, movementDetails, PaymentId, recordedDetails, Uuid } from './shared';

/** Request and response shapes of ledger transactions (docs/contract.md §16). */

const LegCurrency = lazySchema(() =>
  Currency.meta({
    description: "The leg's currency; default: the transaction's `currency` (§35)",
  }),
);

export const Leg = lazySchema(() =>
  z.strictObject({
    accountId: Uuid,
    direction: z.enum(['debit', 'credit']),
    amount: Amount,
    currency: LegCurrency.optional(),
  }),
);

/** 2–25 legs, each account at most once; HTTP bodies and `ledger.transaction.v1` share it. */
export const Legs = lazySchema(() =>
  z
    .array(Leg)
    .min(MIN_LEGS)
    .max(MAX_LEGS)
    .superRefine((legs, ctx) => {
      const seen = new Set<string>();
      legs.forEach((leg, index) => {
        if (seen.has(leg.accountId)) {
          ctx.addIssue({
            code: 'custom',
            path: [index, 'accountId'],
            message: 'each account may appear in one leg only',
          });
        }
        seen.add(leg.accountId);
      });
    })
    .meta({
      description:
        '2–25 legs, each account at most once; debits and credits sum alike in each currency',
    }),
);

/** An exchange rate recorded for audit: 1 `base` = `rate` `quote` (§35); never converts. */
export const Rate = lazySchema(() =>
  z.strictObject({
    base: Currency,
    quote: Currency,
    rate: z
      .string()
      .regex(RATE_PATTERN, 'must be a decimal string of up to 12 + 12 digits, like "0.9213"')
      .meta({ description: 'Decimal string > 0', example: '0.9213' }),
  }),
);

export const Rates = lazySchema(() =>
  z
    .array(Rate)
    .min(1)
    .max(MAX_RATES)
    .meta({ description: `At most ${MAX_RATES} rates, each a pair of currencies the legs move` }),
);

/** The top-level currency is the default of the legs: optional only when every leg has one. */
export const DefaultCurrency = lazySchema(() =>
  Currency.optional().meta({
    description: 'Default currency of legs without one; optional when every leg names its own',
  }),
);

/**
 * The rules between fields (§35, §36): every leg has a currency (its own or the default), and
 * each rate is > 0, between two currencies the legs move, its pair given once. HTTP bodies,
 * batch operations and `ledger.transaction.v1` data share them.
 */
export function refineCurrencies(
  tx: CurrencyTransaction & { readonly rates?: readonly ExchangeRate[] },
  ctx: z.RefinementCtx,
  at: readonly (string | number)[] = [],
): void {
  if (tx.currency === undefined) {
    tx.legs.forEach((leg, index) => {
      if (leg.currency !== undefined) return;
      ctx.addIssue({
        code: 'custom',
        path: [...at, 'legs', index, 'currency'],
        message: 'required when the transaction has no top-level currency',
      });
    });
  }
  for (const issue of rateIssues(tx.rates ?? [], currenciesOf(tx))) {
    const field = issue.field === undefined ? [] : [issue.field];
    ctx.addIssue({
      code: 'custom',
      path: [...at, 'rates', issue.index, ...field],
      message: issue.message,
    });
  }
}

export const CreateLedgerTransactionBody = lazySchema(() =>
  z
    .strictObject({
      currency: DefaultCurrency,
      legs: Legs,
      rates: Rates.optional(),
      ...movementDetails(),
      paymentId: PaymentId.optional().meta({
        description: 'Business unique key in the namespace of the first debited account',
      }),
    })
    .superRefine((body, ctx) => refineCurrencies(body, ctx)),
);

export const LedgerTransactionPath = lazySchema(() =>
  z.strictObject({ ledgerTransactionId: Uuid }),
);

export const LedgerTransaction = lazySchema(() =>
  z.object({
    id: Uuid,
    currency: Currency.optional().meta({ description: 'As sent: the default of the legs' }),
    legs: z.array(
      z.object({
        accountId: Uuid,
        direction: z.enum(['debit', 'credit']),
        amount: Amount,
        currency: LegCurrency.optional(),
      }),
    ),
    rates: z.array(Rate).optional(),
    ...recordedDetails('Reads: how much reversals moved back so far (all of it, or nothing)'),
  }),
);
