import * as z from 'zod';
import {
  Amount,
  Currency,
  EffectiveAt,
  EffectiveTimestamp,
  Metadata,
  PaymentId,
  Reference,
  Timestamp,
  Uuid,
} from './shared';

/** Request and response shapes of transfers and holds (docs/contract.md §10, §11). */

export const CreateTransferBody = z
  .strictObject({
    fromAccountId: Uuid,
    toAccountId: Uuid,
    amount: Amount,
    currency: Currency,
    reference: Reference.optional(),
    paymentId: PaymentId.optional(),
    metadata: Metadata.optional(),
    effectiveAt: EffectiveAt.optional(),
  })
  .refine((body) => body.fromAccountId !== body.toAccountId, {
    path: ['toAccountId'],
    message: 'must differ from fromAccountId',
  });

export const TransferPath = z.strictObject({ transferId: Uuid });

export const Transfer = z.object({
  id: Uuid,
  fromAccountId: Uuid,
  toAccountId: Uuid,
  amount: Amount,
  currency: Currency,
  reference: z.string().optional(),
  paymentId: z.string().optional(),
  metadata: Metadata.optional(),
  reversedAmount: z.number().int().min(0).optional().meta({
    description: 'Reads: how much reversals moved back so far',
  }),
  createdAt: Timestamp,
  effectiveAt: EffectiveTimestamp,
});
