import * as z from 'zod';
import { MAX_LEGS } from '../domain/accounts/ledger-transaction-record';
import { MAX_AMOUNT, MIN_AMOUNT } from '../domain/accounts/money';
import { ReversalOf } from './accounts';
import { lazySchema } from './lazy';
import { Amount, Currency, minorUnits, Reference, Timestamp, Uuid } from './shared';

/** Request and response shapes of reversals (docs/contract.md §16). */

/** Without `amount`, what is left unreversed. */
export const ReverseBody = lazySchema(() =>
  z.strictObject({
    amount: Amount.optional().meta({ description: 'Default: what is left unreversed' }),
    reference: Reference.optional(),
  }),
);

/** A ledger transaction is reversed whole. */
export const ReverseWholeBody = lazySchema(() =>
  z.strictObject({ reference: Reference.optional() }),
);

export const EntryPath = lazySchema(() => z.strictObject({ accountId: Uuid, entryId: Uuid }));

export const Reversal = lazySchema(() =>
  z.object({
    id: Uuid,
    reversalOf: ReversalOf,
    amount: Amount,
    reference: z.string().optional(),
    createdAt: Timestamp,
  }),
);

/**
 * What a whole reversal of a ledger transaction moves: up to 25 legs of 10^12 each
 * (docs/contract.md §30). Only this answer may exceed an entry's cap.
 */
export const ReversalAmount = lazySchema(() =>
  minorUnits(MIN_AMOUNT, MAX_LEGS * MAX_AMOUNT).meta({
    description: 'Integer amount in minor units: the sum of the debit legs moved back',
  }),
);

/**
 * A ledger transaction's reversal: `amount`, or for a multi-currency one `amounts`, what moved
 * back per currency, instead (docs/contract.md §36).
 */
export const LedgerTransactionReversal = lazySchema(() =>
  Reversal.extend({
    amount: ReversalAmount.optional().meta({
      description: 'The sum of the debit legs moved back; absent for several currencies',
    }),
    amounts: z
      .array(z.object({ currency: Currency, amount: ReversalAmount }))
      .optional()
      .meta({ description: 'A multi-currency transaction: what moved back per currency (§36)' }),
  }),
);
