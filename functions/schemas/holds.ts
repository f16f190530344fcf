import * as z from 'zod';
import { HOLD_STATUSES, MAX_HOLD_SECONDS } from '../domain/accounts/hold-record';
import { ListTransactionsQuery } from './accounts';
import { lazySchema } from './lazy';
import { Amount, Currency, Metadata, Reference, Timestamp, Uuid } from './shared';

export const PlaceHoldBody = lazySchema(() =>
  z.strictObject({
    amount: Amount,
    currency: Currency,
    expiresInSeconds: z
      .number()
      .int()
      .min(1)
      .max(MAX_HOLD_SECONDS)
      .meta({ description: 'Seconds until the hold expires and its amount is available again' }),
    reference: Reference.optional(),
    metadata: Metadata.optional(),
  }),
);

/** Without `amount`, the whole hold is captured. */
export const CaptureHoldBody = lazySchema(() => z.strictObject({ amount: Amount.optional() }));

/** A void takes no options: the body must be `{}`. */
export const VoidHoldBody = lazySchema(() => z.strictObject({}));

export const HoldPath = lazySchema(() => z.strictObject({ holdId: Uuid }));

export const ListHoldsQuery = lazySchema(() =>
  ListTransactionsQuery.extend({
    status: z.enum(HOLD_STATUSES).optional(),
  }),
);

export const Hold = lazySchema(() =>
  z.object({
    id: Uuid,
    accountId: Uuid,
    amount: Amount,
    currency: Currency,
    status: z.enum(HOLD_STATUSES),
    capturedAmount: z.number().int().min(0),
    expiresAt: Timestamp,
    reference: z.string().optional(),
    metadata: Metadata.optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

export const HoldPage = lazySchema(() =>
  z.object({ items: z.array(Hold), nextCursor: z.string().nullable() }),
);
