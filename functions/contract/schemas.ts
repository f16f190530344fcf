import * as z from 'zod';
import { TRANSACTION_TYPES } from '../core/model';
import { isIsoCurrency, MAX_AMOUNT, MIN_AMOUNT } from '../core/money';
import { EXECUTION_STATUSES, EXPORT_FORMATS } from '../core/tasks';
import { MAX_LISTED_EXECUTIONS } from './exports';

/** Request and response shapes of docs/contract.md §5: validation and the OpenAPI document share them. */

export const Currency = z
  .string()
  .regex(/^[A-Z]{3}$/, { message: 'must be a three-letter ISO 4217 code', abort: true })
  .refine(isIsoCurrency, 'must be an ISO 4217 currency code')
  .meta({ description: 'ISO 4217 currency code', example: 'EUR' });

export const Amount = z
  .number()
  .int('must be an integer number of minor units')
  .min(MIN_AMOUNT)
  .max(MAX_AMOUNT)
  .meta({ description: 'Integer amount in minor units' });

/** UUIDs are case-insensitive: lower-cased before any comparison, key or fingerprint (docs/contract.md §4). */
export const Uuid = z.uuid().overwrite((id) => id.toLowerCase());

export const PaymentId = z
  .string()
  .regex(/^[\x21-\x7e]{1,128}$/, 'must be 1–128 printable ASCII characters without spaces')
  .meta({ description: 'Business unique key per account; never expires' });

export const CreateAccountBody = z.strictObject({
  currency: Currency,
  name: z.string().min(1).max(200).optional(),
});

/** A caller's free-text reference on a movement (credits, debits, transfers, holds, events). */
export const Reference = z.string().min(1).max(256);
/** Lower-case hex SHA-256 of an export file. */
export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'lowercase hex SHA-256');

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

export const Timestamp = z.iso.datetime();

export const Account = z.object({
  id: Uuid,
  currency: Currency,
  balance: z.number().int(),
  available: z.number().int().meta({
    description: 'balance less the active holds; what debits, transfers and holds draw on',
  }),
  name: z.string().optional(),
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

export const Problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

const Gaps = z.array(z.number().int().min(1)).max(1000);

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

export const CreateExportBody = z.strictObject({ format: z.enum(EXPORT_FORMATS) });

/** A rerun takes no options: the body must be `{}`. */
export const RerunBody = z.strictObject({});

export const TaskPath = z.strictObject({ taskId: Uuid });

export const Execution = z.object({
  id: Uuid,
  status: z.enum(EXECUTION_STATUSES),
  progress: z.number().int().min(0).max(100),
  lastSequence: z.number().int().min(0),
  gaps: Gaps,
  gapsTruncated: z.boolean(),
  /** Past it, a non-terminal execution is timed out by the sweeper (§12). */
  deadline: Timestamp.optional(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const Task = z.object({
  id: Uuid,
  accountId: Uuid,
  format: z.enum(EXPORT_FORMATS),
  status: z.enum(EXECUTION_STATUSES),
  progress: z.number().int().min(0).max(100),
  currentExecutionId: Uuid,
  /** The 20 newest executions, oldest first (§12). */
  executions: z.array(Execution).max(MAX_LISTED_EXECUTIONS),
  /** True when older executions were left out. */
  executionsTruncated: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** `GET /v1/tasks/{taskId}/result` (§12): the current execution's file and a download link. */
export const ExportResult = z.object({
  format: z.enum(EXPORT_FORMATS),
  rows: z.number().int().min(0),
  bytes: z.number().int().min(0),
  sha256: Sha256Hex,
  /** Presigned GET, valid 15 minutes. */
  url: z.url(),
  urlExpiresAt: Timestamp,
});
