import * as z from 'zod';
import { ReversalOf } from './accounts';
import { Amount, Reference, Timestamp, Uuid } from './shared';

/** Request and response shapes of reversals (docs/contract.md §16). */

/** Without `amount`, what is left unreversed. */
export const ReverseBody = z.strictObject({
  amount: Amount.optional().meta({ description: 'Default: what is left unreversed' }),
  reference: Reference.optional(),
});

/** A ledger transaction is reversed whole. */
export const ReverseWholeBody = z.strictObject({ reference: Reference.optional() });

export const EntryPath = z.strictObject({ accountId: Uuid, entryId: Uuid });

export const Reversal = z.object({
  id: Uuid,
  reversalOf: ReversalOf,
  amount: Amount,
  reference: z.string().optional(),
  createdAt: Timestamp,
});
