import * as z from 'zod';
import { BATCH_MODES, MAX_BATCH_OPERATIONS } from '../contract/batches';
import {
  MAX_IDEMPOTENCY_KEY_LENGTH,
  PRINTABLE_ASCII,
  parseIdempotencyKey,
} from '../domain/idempotency/key';
import { PostTransactionBody, Transaction } from './accounts';
import { lazySchema } from './lazy';
import { CreateLedgerTransactionBody, LedgerTransaction } from './ledger-transactions';
import { Problem, Uuid } from './shared';
import { CreateTransferBody, Transfer } from './transfers';

/** Request and response shapes of batches (docs/contract.md §25). */

/**
 * Whether a key is what `parseIdempotencyKey` reads from a bare header carrying it: a key with
 * surrounding spaces (a header is trimmed), quotes or escapes (an RFC 8941 string is decoded) or
 * a comma (two header values) names another key, or none, when sent alone (docs/contract.md §25).
 */
function decodesAsItself(key: string): boolean {
  try {
    return parseIdempotencyKey(key) === key;
  } catch {
    return false;
  }
}

/** An operation's own key: what `Idempotency-Key` would carry if it were sent alone (§4). */
export const OperationKey = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(MAX_IDEMPOTENCY_KEY_LENGTH)
    .regex(PRINTABLE_ASCII, 'printable ASCII')
    .refine(
      decodesAsItself,
      'must read as itself in an Idempotency-Key header: no surrounding spaces, quotes or commas',
    )
    .meta({
      description:
        "The operation's Idempotency-Key, claimed in the single route's scope: exactly what " +
        'the header would carry when sent alone (no surrounding spaces, quotes or commas)',
    }),
);

const PostingOperation = (op: 'credit' | 'debit') =>
  z.strictObject({
    key: OperationKey,
    op: z.literal(op),
    accountId: Uuid,
    body: PostTransactionBody,
  });

const TransferOperation = lazySchema(() =>
  z.strictObject({
    key: OperationKey,
    op: z.literal('transfer'),
    body: CreateTransferBody,
  }),
);

const LedgerTransactionOperation = lazySchema(() =>
  z.strictObject({
    key: OperationKey,
    op: z.literal('ledger_transaction'),
    body: CreateLedgerTransactionBody,
  }),
);

export const BatchOperation = lazySchema(() =>
  z.discriminatedUnion('op', [
    PostingOperation('credit'),
    PostingOperation('debit'),
    TransferOperation,
    LedgerTransactionOperation,
  ]),
);

export type BatchOperationInput = z.output<typeof BatchOperation>;

const EXAMPLE_ACCOUNT = '3f2b1c9e-8d7a-4e6f-9b5c-1a2d3e4f5a6b';
const EXAMPLE_OTHER = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

export const CreateBatchBody = lazySchema(() =>
  z
    .strictObject({
      mode: z.enum(BATCH_MODES).meta({
        description:
          'independent: each operation succeeds or fails alone; atomic: all commit in one ' +
          'transaction or none does',
      }),
      operations: z.array(BatchOperation).min(1).max(MAX_BATCH_OPERATIONS),
    })
    .superRefine((batch, ctx) => {
      const seen = new Set<string>();
      batch.operations.forEach((operation, index) => {
        if (seen.has(operation.key)) {
          ctx.addIssue({
            code: 'custom',
            path: ['operations', index, 'key'],
            message: 'each operation of a batch has its own key',
          });
        }
        seen.add(operation.key);
        if (
          (operation.op === 'credit' || operation.op === 'debit') &&
          operation.body.type !== operation.op
        ) {
          ctx.addIssue({
            code: 'custom',
            path: ['operations', index, 'body', 'type'],
            message: `must be "${operation.op}", as the operation's op says`,
          });
        }
      });
    })
    .meta({
      examples: [
        {
          mode: 'independent',
          operations: [
            {
              key: 'payout-2026-12-01-0001',
              op: 'credit',
              accountId: EXAMPLE_ACCOUNT,
              body: { type: 'credit', amount: 1250, currency: 'EUR', reference: 'payout 0001' },
            },
            {
              key: 'payout-2026-12-01-0002',
              op: 'transfer',
              body: {
                fromAccountId: EXAMPLE_ACCOUNT,
                toAccountId: EXAMPLE_OTHER,
                amount: 500,
                currency: 'EUR',
              },
            },
          ],
        },
      ],
    }),
);

export type CreateBatchInput = z.output<typeof CreateBatchBody>;

/** One operation's answer: exactly what the single route would have answered. */
export const BatchResult = lazySchema(() =>
  z.object({
    key: OperationKey,
    status: z
      .number()
      .int()
      .meta({ description: "The single route's status: 201, 409, 422, 503…" }),
    body: z
      .union([Transaction, Transfer, LedgerTransaction, Problem])
      .meta({ description: "The single route's body, byte for byte: the resource or a problem" }),
    replayed: z
      .literal(true)
      .optional()
      .meta({ description: 'The operation had been applied before under its key: its replay' }),
  }),
);

export const Batch = lazySchema(() =>
  z
    .object({
      mode: z.enum(BATCH_MODES),
      results: z.array(BatchResult).meta({ description: 'One per operation, in request order' }),
    })
    .meta({
      examples: [
        {
          mode: 'independent',
          results: [
            {
              key: 'payout-2026-12-01-0001',
              status: 201,
              body: {
                id: '0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
                accountId: EXAMPLE_ACCOUNT,
                type: 'credit',
                amount: 1250,
                currency: 'EUR',
                reference: 'payout 0001',
                origin: 'http',
                createdAt: '2026-12-01T10:00:00.000Z',
                effectiveAt: '2026-12-01T10:00:00.000Z',
              },
            },
            {
              key: 'payout-2026-12-01-0002',
              status: 409,
              body: {
                type: '/v1/problems/insufficient_funds',
                title: 'Insufficient funds',
                status: 409,
                detail: 'The available balance does not cover this amount.',
                code: 'insufficient_funds',
              },
            },
          ],
        },
      ],
    }),
);
