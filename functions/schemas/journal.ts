import * as z from 'zod';
import { DEFAULT_JOURNAL_PAGE, MAX_JOURNAL_PAGE } from '../contract/journal';
import { JOURNAL_KINDS, MAX_CHANGES_PER_UPDATE } from '../domain/journal/model';
import { lazySchema, once } from './lazy';
import { Timestamp, Uuid } from './shared';

/** Wire shapes of the journal (docs/contract.md §15): records, pages, as-of, the event. */

const Delta = lazySchema(() => z.number().int());
const Id = lazySchema(() => z.string().min(1).max(200));

const changeIds = once(() => ({
  entryId: Uuid.optional().meta({ description: 'the entry of the change, where it has one' }),
  holdId: Uuid.optional().meta({ description: 'hold_placed, capture, hold_released: the hold' }),
  transferId: Uuid.optional().meta({ description: 'transfer_out / transfer_in: the transfer' }),
  ledgerTransactionId: Id.optional(),
  reversalOf: Id.optional(),
  effectiveAt: Timestamp.optional().meta({
    description: 'a change with an entry: when the entry counts in the books (§26)',
  }),
  acceptedAt: Timestamp.optional().meta({
    description: 'a deferred credit posted by the folder: when intake accepted it (§24)',
  }),
}));

/** One change as its writer stores it on the account item (`lastChanges`). */
export const AccountChangeSchema = lazySchema(() =>
  z.object({
    kind: z.enum(JOURNAL_KINDS),
    balanceDelta: Delta,
    availableDelta: Delta,
    at: Timestamp,
    ...changeIds(),
  }),
);

export const AccountChanges = lazySchema(() =>
  z.array(AccountChangeSchema).min(1).max(MAX_CHANGES_PER_UPDATE),
);

export const JournalRecord = lazySchema(() =>
  z.object({
    accountId: Uuid,
    sequence: z.number().int().min(1),
    kind: z.enum(JOURNAL_KINDS).meta({
      description:
        "the entry's type where the change has an entry, else hold_placed or hold_released " +
        '(void and expiry)',
    }),
    balanceDelta: Delta,
    availableDelta: Delta,
    balanceAfter: z.number().int(),
    availableAfter: z.number().int(),
    committedAt: Timestamp.meta({
      description: "the writer's clock, never before the previous record's committedAt",
    }),
    opening: z
      .literal(true)
      .optional()
      .meta({
        description:
          'record 1 of an account older than the journal: it starts from what the account held, ' +
          'not from zeros, and nothing is known before it',
      }),
    hash: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional()
      .meta({
        description:
          "hex SHA-256 over the previous record's hash (64 zeros where the chain starts) followed " +
          'by this record without hash in RFC 8785 canonical JSON; absent on records written ' +
          'before the chain existed',
      }),
    chainStart: z
      .literal(true)
      .optional()
      .meta({
        description:
          'the first hashed record of the journal (record 1, or the first one written after the ' +
          'chain was introduced): it links to 64 zeros',
      }),
    ...changeIds(),
  }),
);

export const JournalQuery = lazySchema(() =>
  z.strictObject({
    afterSequence: z.coerce
      .number()
      .int()
      .min(0)
      .max(Number.MAX_SAFE_INTEGER - 1)
      .default(0)
      .meta({ description: 'the last sequence the caller has; the page starts after it' }),
    limit: z.coerce.number().int().min(1).max(MAX_JOURNAL_PAGE).default(DEFAULT_JOURNAL_PAGE),
  }),
);

export const JournalPage = lazySchema(() =>
  z.object({
    items: z.array(JournalRecord),
    nextAfterSequence: z.number().int().min(1).nullable().meta({
      description: 'afterSequence of the next page; null when this page reached the last record',
    }),
  }),
);

/**
 * `asOf` (commit time, §15) or `effectiveAt` (effective time, §26): exactly one of them.
 */
export const BalancesQuery = lazySchema(() =>
  z
    .strictObject({
      asOf: z.iso.datetime({ offset: true }).optional().meta({
        description: 'ISO 8601 instant, not in the future: the balances as committed by then',
        example: '2026-12-01T10:00:00Z',
      }),
      effectiveAt: z.iso.datetime({ offset: true }).optional().meta({
        description:
          'ISO 8601 instant: the sum of the entries effective at or before it (docs/contract.md §26)',
        example: '2026-11-30T23:59:59Z',
      }),
    })
    .refine((q) => (q.asOf === undefined) !== (q.effectiveAt === undefined), {
      path: ['asOf'],
      message: 'give exactly one of asOf and effectiveAt',
    }),
);

export const Balances = lazySchema(() =>
  z.object({
    accountId: Uuid,
    asOf: Timestamp,
    balance: z.number().int(),
    available: z.number().int(),
    sequence: z.number().int().min(0).meta({
      description: 'the last journal record committed at or before asOf (0: before the first)',
    }),
  }),
);
