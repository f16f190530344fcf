import * as z from 'zod';
import { Amount, Currency, MovementDetails, recordedDetails, Uuid } from './shared';

/** Request and response shapes of transfers and holds (docs/contract.md §10, §11). */

export const CreateTransferBody = z
  .strictObject({
    fromAccountId: Uuid,
    toAccountId: Uuid,
    amount: Amount,
    currency: Currency,
    ...MovementDetails,
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
  ...recordedDetails('Reads: how much reversals moved back so far'),
});
