import * as z from 'zod';
import { MAX_LEGS, MIN_LEGS } from '../domain/accounts/ledger-transaction-record';
import { Amount, Currency, MovementDetails, PaymentId, recordedDetails, Uuid } from './shared';

/** Request and response shapes of ledger transactions (docs/contract.md §16). */

export const Leg = z.strictObject({
  accountId: Uuid,
  direction: z.enum(['debit', 'credit']),
  amount: Amount,
});

/** 2–25 legs, each account at most once; HTTP bodies and `ledger.transaction.v1` share it. */
export const Legs = z
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
  .meta({ description: '2–25 legs, each account at most once; debits and credits sum alike' });

export const CreateLedgerTransactionBody = z.strictObject({
  currency: Currency,
  legs: Legs,
  ...MovementDetails,
  paymentId: PaymentId.optional().meta({
    description: 'Business unique key in the namespace of the first debited account',
  }),
});

export const LedgerTransactionPath = z.strictObject({ ledgerTransactionId: Uuid });

export const LedgerTransaction = z.object({
  id: Uuid,
  currency: Currency,
  legs: z.array(
    z.object({ accountId: Uuid, direction: z.enum(['debit', 'credit']), amount: Amount }),
  ),
  ...recordedDetails('Reads: how much reversals moved back so far (all of it, or nothing)'),
});
