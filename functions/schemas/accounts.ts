import * as z from 'zod';
import { MAX_GAP_RANGES } from '../contract/gaps';
import { ACCOUNT_STATUSES, CREDIT_INTAKE_MODES, TRANSACTION_TYPES } from '../domain/accounts/model';
import { lazySchema } from './lazy';
import {
  Amount,
  Currency,
  EffectiveTimestamp,
  Gaps,
  Metadata,
  movementDetails,
  OverdraftLimit,
  Timestamp,
  Uuid,
} from './shared';

/** How an account takes credits (docs/contract.md §24). */
export const CreditIntake = lazySchema(() =>
  z.enum(CREDIT_INTAKE_MODES).meta({
    description:
      'direct (default): a credit changes the account in its own transaction; deferred: credits ' +
      'are accepted as pending credits and posted in batches within seconds',
  }),
);

/** New optional fields get no defaults here: the fingerprint hashes the body as received. */
export const CreateAccountBody = lazySchema(() =>
  z.strictObject({
    currency: Currency,
    name: z.string().min(1).max(200).optional(),
    overdraftLimit: OverdraftLimit.optional(),
    creditIntake: CreditIntake.optional(),
    metadata: Metadata.optional(),
  }),
);

export const PostTransactionBody = lazySchema(() =>
  z.strictObject({
    type: z.enum(['credit', 'debit']),
    amount: Amount,
    currency: Currency,
    ...movementDetails(),
  }),
);

/**
 * `POST …/settings` (docs/contract.md §24): at least one field. New optional fields get no
 * defaults: the fingerprint hashes the body as received.
 */
export const SettingsBody = lazySchema(() =>
  z
    .strictObject({
      creditIntake: CreditIntake.optional(),
      overdraftLimit: OverdraftLimit.optional(),
      metadata: Metadata.nullable()
        .optional()
        .meta({ description: "the account's new metadata, replacing it whole; null clears it" }),
    })
    .refine(
      (body) =>
        body.creditIntake !== undefined ||
        body.overdraftLimit !== undefined ||
        body.metadata !== undefined,
      { message: 'must name at least one of creditIntake, overdraftLimit, metadata' },
    ),
);

/** Closing takes no options: the body must be `{}`. */
export const CloseAccountBody = lazySchema(() => z.strictObject({}));

export const ListTransactionsQuery = lazySchema(() =>
  z.strictObject({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z.string().min(1).max(1024).optional(),
  }),
);

export const AccountPath = lazySchema(() => z.strictObject({ accountId: Uuid }));

export const Account = lazySchema(() =>
  z.object({
    id: Uuid,
    currency: Currency,
    balance: z.number().int(),
    available: z.number().int().meta({
      description:
        'balance less the active holds; with overdraftLimit, what debits, transfers and holds draw on',
    }),
    overdraftLimit: OverdraftLimit,
    status: z.enum(ACCOUNT_STATUSES).meta({ description: 'closed: nothing moves any more' }),
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
    closedThrough: Timestamp.optional().meta({
      description:
        'movements effective at or before it are refused (period_closed); statements and ' +
        'effective balances up to it never change',
    }),
    creditIntake: CreditIntake,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    metadata: Metadata.optional().meta({
      description: 'caller-chosen pairs, absent when it has none; searchable (GET /v1/accounts)',
    }),
  }),
);

/** What a reversal reverses (docs/contract.md §16). */
export const ReversalOf = lazySchema(() =>
  z.object({
    kind: z.enum(['entry', 'transfer', 'ledger_transaction']),
    id: Uuid,
  }),
);

export const Transaction = lazySchema(() =>
  z.object({
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
    ledgerTransactionId: Uuid.optional().meta({
      description: 'ledger_debit / ledger_credit, and reversals of one: the ledger transaction',
    }),
    reversalOf: ReversalOf.optional().meta({ description: 'reversal: what it reverses' }),
    reversalId: Uuid.optional().meta({ description: 'reversal: the reversal it belongs to' }),
    direction: z
      .enum(['debit', 'credit'])
      .optional()
      .meta({ description: 'reversal: which way it moved the balance' }),
    metadata: Metadata.optional(),
    reversedAmount: z.number().int().min(0).optional().meta({
      description: 'credit, debit, capture: how much reversals moved back so far',
    }),
    origin: z.enum(['http', 'event']),
    createdAt: Timestamp,
    effectiveAt: EffectiveTimestamp,
  }),
);

/** An entry as reads show it (listings, reads by id, exports): POST answers have no status. */
export const Entry = lazySchema(() =>
  Transaction.extend({
    status: z.enum(['posted', 'pending', 'set_aside']).meta({
      description:
        "pending: a deferred account's credit not posted yet (docs/contract.md §24); set_aside: " +
        'one the folder can never post, until an operator resolves it (§36, reads by id only); ' +
        'posted: it changed the account (every entry of a direct account)',
    }),
    reason: z.string().optional().meta({ description: 'set_aside: why (a refusal code)' }),
    setAsideAt: Timestamp.optional().meta({ description: 'set_aside: when' }),
  }),
);

export const TransactionPage = lazySchema(() =>
  z.object({
    items: z.array(Entry),
    nextCursor: z.string().nullable(),
  }),
);

export const EntryPath = lazySchema(() => z.strictObject({ accountId: Uuid, entryId: Uuid }));

/** A credit accepted into a deferred account, not posted yet (docs/contract.md §24). */
export const PendingCredit = lazySchema(() =>
  z.object({
    entryId: Uuid.meta({ description: 'the id its entry keeps once posted' }),
    accountId: Uuid,
    amount: Amount,
    currency: Currency,
    kind: z.enum(TRANSACTION_TYPES).meta({ description: 'the entry type it posts as' }),
    acceptedAt: Timestamp.meta({ description: 'when the movement committed it' }),
    effectiveAt: EffectiveTimestamp,
    transferId: Uuid.optional(),
    ledgerTransactionId: Uuid.optional(),
    reversalOf: ReversalOf.optional(),
    reference: z.string().optional(),
    paymentId: z.string().optional(),
    status: z.enum(['pending', 'set_aside']).meta({
      description: 'set_aside: the folder can never post it (§36); an operator resolves it',
    }),
    reason: z.string().optional().meta({ description: 'why it was set aside (a refusal code)' }),
    setAsideAt: Timestamp.optional(),
  }),
);

export const PendingCreditPage = lazySchema(() =>
  z.object({
    items: z.array(PendingCredit),
    nextCursor: z.string().nullable(),
  }),
);

export const EventSourceList = lazySchema(() =>
  z.object({
    items: z.array(
      z.object({
        source: z.string(),
        lastSequence: z.number().int().min(0),
        gaps: Gaps,
        gapsTruncated: z.boolean(),
        gapDetails: z
          .array(
            z.object({
              number: z.number().int().min(1),
              openedAt: Timestamp.meta({
                description: 'when the event that skipped it was written',
              }),
              refetchRequestedAt: Timestamp.optional().meta({
                description: 'when a ledger.gap.refetch.v1 naming it was committed',
              }),
            }),
          )
          .max(1000)
          .meta({ description: 'each of `gaps` with when it opened (docs/contract.md §18)' }),
        gapRanges: z
          .array(
            z.object({
              from: z.number().int().min(1),
              to: z.number().int().min(1),
              openedAt: Timestamp,
              refetchRequestedAt: Timestamp.optional(),
            }),
          )
          .max(MAX_GAP_RANGES)
          .meta({
            description:
              'the missing numbers above `gaps`, as inclusive ranges (docs/contract.md §30): ' +
              'asked for and waivable like listed ones; they refill `gaps` as listed gaps close',
          }),
        waived: z
          .array(
            z.object({
              number: z.number().int().min(1),
              reason: z.string(),
              waivedAt: Timestamp,
            }),
          )
          .max(1000)
          .meta({
            description: 'the last 1,000 numbers a ledger.gap.waived.v1 closed, oldest first',
          }),
      }),
    ),
  }),
);
