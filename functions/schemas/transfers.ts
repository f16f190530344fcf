import * as z from 'zod';
import { lazySchema } from './lazy';
import { Amount, Currency, movementDetails, recordedDetails, Uuid } from './shared';

/** Request and response shapes of transfers and holds (docs/contract.md §10, §11). */

export const CreateTransferBody = lazySchema(() =>
  z
    .strictObject({
      fromAccountId: Uuid,
      toAccountId: Uuid,
      amount: Amount,
      currency: Currency,
      ...movementDetails(),
    })
    .refine((body) => body.fromAccountId !== body.toAccountId, {
      path: ['toAccountId'],
      message: 'must differ from fromAccountId',
    }),
);

export const TransferPath = lazySchema(() => z.strictObject({ transferId: Uuid }));

export const Transfer = lazySchema(() =>
  z.object({
    id: Uuid,
    fromAccountId: Uuid,
    toAccountId: Uuid,
    amount: Amount,
    currency: Currency,
    ...recordedDetails('Reads: how much reversals moved back so far'),
  }),
);
