import * as z from 'zod';
import { Amount, Currency, PaymentId, Reference, Timestamp, Uuid } from './shared';

/** Request and response shapes of transfers and holds (docs/contract.md §10, §11). */

export const CreateTransferBody = z
  .strictObject({
    fromAccountId: Uuid,
    toAccountId: Uuid,
    amount: Amount,
    currency: Currency,
    reference: Reference.optional(),
    paymentId: PaymentId.optional(),
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
  createdAt: Timestamp,
});
