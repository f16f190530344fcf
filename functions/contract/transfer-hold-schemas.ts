import * as z from 'zod';
import { HOLD_STATUSES, MAX_HOLD_SECONDS } from '../core/holds';
import {
  Amount,
  Currency,
  ListTransactionsQuery,
  PaymentId,
  Reference,
  Timestamp,
  Uuid,
} from './schemas';

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

export const PlaceHoldBody = z.strictObject({
  amount: Amount,
  currency: Currency,
  expiresInSeconds: z
    .number()
    .int()
    .min(1)
    .max(MAX_HOLD_SECONDS)
    .meta({ description: 'Seconds until the hold expires and its amount is available again' }),
  reference: Reference.optional(),
});

/** Without `amount`, the whole hold is captured. */
export const CaptureHoldBody = z.strictObject({ amount: Amount.optional() });

/** A void takes no options: the body must be `{}`. */
export const VoidHoldBody = z.strictObject({});

export const HoldPath = z.strictObject({ holdId: Uuid });

export const ListHoldsQuery = ListTransactionsQuery.extend({
  status: z.enum(HOLD_STATUSES).optional(),
});

export const Hold = z.object({
  id: Uuid,
  accountId: Uuid,
  amount: Amount,
  currency: Currency,
  status: z.enum(HOLD_STATUSES),
  capturedAmount: z.number().int().min(0),
  expiresAt: Timestamp,
  reference: z.string().optional(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const HoldPage = z.object({ items: z.array(Hold), nextCursor: z.string().nullable() });
