import * as z from 'zod';
import { TRANSACTION_TYPES } from '../domain/accounts/model';
import { Amount, Currency, Gaps, PaymentId, Reference, Timestamp, Uuid } from './shared';

export const CreateAccountBody = z.strictObject({
  currency: Currency,
  name: z.string().min(1).max(200).optional(),
});

export const PostTransactionBody = z.strictObject({
  type: z.enum(['credit', 'debit']),
  amount: Amount,
  currency: Currency,
  reference: Reference.optional(),
  paymentId: PaymentId.optional(),
});

export const ListTransactionsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(1024).optional(),
});

export const AccountPath = z.strictObject({ accountId: Uuid });

export const Account = z.object({
  id: Uuid,
  currency: Currency,
  balance: z.number().int(),
  available: z.number().int().meta({
    description: 'balance less the active holds; what debits, transfers and holds draw on',
  }),
  name: z.string().optional(),
  version: z
    .number()
    .int()
    .min(0)
    .meta({
      description:
        'changes of balance or available committed so far: the journal reaches this sequence ' +
        'within seconds (an account older than the journal counts from its first change after it)',
    }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const Transaction = z.object({
  id: Uuid,
  accountId: Uuid,
  type: z.enum(TRANSACTION_TYPES),
  amount: Amount,
  currency: Currency,
  reference: z.string().optional(),
  paymentId: z.string().optional(),
  transferId: Uuid.optional().meta({ description: 'transfer_out / transfer_in: the transfer' }),
  counterpartyAccountId: Uuid.optional().meta({
    description: 'transfer_out / transfer_in: the other account',
  }),
  holdId: Uuid.optional().meta({ description: 'capture: the hold captured' }),
  origin: z.enum(['http', 'event']),
  createdAt: Timestamp,
});

export const TransactionPage = z.object({
  items: z.array(Transaction),
  nextCursor: z.string().nullable(),
});

export const EventSourceList = z.object({
  items: z.array(
    z.object({
      source: z.string(),
      lastSequence: z.number().int().min(0),
      gaps: Gaps,
      gapsTruncated: z.boolean(),
    }),
  ),
});
