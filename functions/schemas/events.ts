import * as z from 'zod';
import { GAP_WAIVED_EVENT_TYPE, MAX_WAIVER_NUMBERS, MAX_WAIVER_REASON } from '../contract/gaps';
import { isMultiCurrency, unbalancedCurrencies } from '../domain/accounts/ledger-currencies';
import { firstDebited } from '../domain/accounts/ledger-transaction-record';
import { utf8Bytes } from '../domain/shared/unicode';
import { lazySchema, once } from './lazy';
import { DefaultCurrency, Legs, Rates, refineCurrencies } from './ledger-transactions';
import { Amount, Currency, EffectiveAt, Metadata, PaymentId, Reference, Uuid } from './shared';

/**
 * `source` becomes part of a sort key (`SOURCE#<source>`), which DynamoDB limits to 1,024
 * bytes: the limit is in UTF-8 bytes, checked before anything is written (docs/contract.md §6).
 */
export const MAX_EVENT_SOURCE_BYTES = 512;

const EventSource = lazySchema(() =>
  z
    .string()
    .min(1)
    .refine((source) => utf8Bytes(source) <= MAX_EVENT_SOURCE_BYTES, {
      message: `must be at most ${MAX_EVENT_SOURCE_BYTES} UTF-8 bytes`,
    }),
);

/** A positive integer, as a JSON number or a decimal string (CloudEvents extensions are often strings). */
export const SequenceNumber = lazySchema(() =>
  z.union([
    z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
    z
      .string()
      .regex(/^[1-9][0-9]{0,15}$/, 'must be a decimal integer ≥ 1')
      .transform(Number)
      .pipe(z.number().max(Number.MAX_SAFE_INTEGER)),
  ]),
);

export const LEDGER_EVENT_TYPES = {
  'ledger.credit.v1': 'credit',
  'ledger.debit.v1': 'debit',
  /** docs/contract.md §10: from `subject` to `data.toAccountId`, both of one owner. */
  'ledger.transfer.v1': 'transfer',
  /** docs/contract.md §16: N legs; `subject` is the first debited account. */
  'ledger.transaction.v1': 'transaction',
} as const;

const envelope = once(() => ({
  specversion: z.literal('1.0'),
  id: z.string().min(1).max(256),
  source: z
    .string()
    .min(1)
    .refine((source) => utf8Bytes(source) <= MAX_EVENT_SOURCE_BYTES, {
      message: `must be at most ${MAX_EVENT_SOURCE_BYTES} UTF-8 bytes`,
    }),
  subject: Uuid,
  sequence: SequenceNumber.optional(),
  time: z.iso.datetime({ offset: true }).optional(),
  datacontenttype: z.literal('application/json').optional(),
}));

/** Credits, debits and transfers: one amount. */
const MovementEvent = lazySchema(() =>
  z.looseObject({
    ...envelope(),
    type: z.enum(['ledger.credit.v1', 'ledger.debit.v1', 'ledger.transfer.v1']),
    data: z.strictObject({
      toAccountId: Uuid.optional(),
      amount: Amount,
      currency: Currency,
      paymentId: PaymentId.optional(),
      reference: Reference.optional(),
      metadata: Metadata.optional(),
      effectiveAt: EffectiveAt.optional(),
    }),
  }),
);

/** Ledger transactions: the HTTP body's fields (docs/contract.md §16). */
const TransactionEvent = lazySchema(() =>
  z.looseObject({
    ...envelope(),
    type: z.literal('ledger.transaction.v1'),
    data: z.strictObject({
      currency: DefaultCurrency,
      legs: Legs,
      rates: Rates.optional(),
      reference: Reference.optional(),
      paymentId: PaymentId.optional(),
      metadata: Metadata.optional(),
      effectiveAt: EffectiveAt.optional(),
    }),
  }),
);

/**
 * docs/contract.md §6, §10, §16: a CloudEvents 1.0 ledger event. Extension attributes are
 * allowed; data is strict: `toAccountId` is required for a transfer, refused otherwise, and must
 * differ from `subject` (§10); a ledger transaction's legs sum alike and its `subject` is its
 * first debited account (§16). Every type accepts `data.metadata`.
 */
export const LedgerEventSchema = lazySchema(() =>
  z.discriminatedUnion('type', [MovementEvent, TransactionEvent]).superRefine((event, ctx) => {
    if (event.type === 'ledger.transaction.v1') {
      refineCurrencies(event.data, ctx, ['data']);
      const multi = isMultiCurrency(event.data);
      for (const { currency, debits, credits } of unbalancedCurrencies(event.data)) {
        ctx.addIssue({
          code: 'custom',
          path: ['data', 'legs'],
          message: `${multi ? `${currency} ` : ''}debits (${debits}) and credits (${credits}) differ`,
        });
      }
      if (firstDebited(event.data.legs)?.accountId !== event.subject) {
        ctx.addIssue({
          code: 'custom',
          path: ['subject'],
          message: 'must be the account of the first debit leg',
        });
      }
      return;
    }
    const to = event.data.toAccountId;
    const path = ['data', 'toAccountId'];
    if (event.type === 'ledger.transfer.v1') {
      if (to === undefined) ctx.addIssue({ code: 'custom', path, message: 'required' });
      else if (to === event.subject) {
        ctx.addIssue({ code: 'custom', path, message: 'must differ from subject' });
      }
    } else if (to !== undefined) {
      ctx.addIssue({ code: 'custom', path, message: 'only a transfer has a destination' });
    }
  }),
);

export type LedgerEvent = z.output<typeof LedgerEventSchema>;

/**
 * docs/contract.md §18: a producer declares numbers of its own sequence (its `source`, for the
 * account `subject`) that will never come. Both `numbers` and a `reason` are required.
 */
export const GapWaivedEventSchema = lazySchema(() =>
  z.looseObject({
    specversion: z.literal('1.0'),
    id: z.string().min(1).max(256),
    source: EventSource,
    type: z.literal(GAP_WAIVED_EVENT_TYPE),
    subject: Uuid,
    time: z.iso.datetime({ offset: true }).optional(),
    datacontenttype: z.literal('application/json').optional(),
    data: z.strictObject({
      numbers: z
        .array(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER))
        .min(1)
        .max(MAX_WAIVER_NUMBERS),
      reason: z.string().trim().min(1).max(MAX_WAIVER_REASON),
    }),
  }),
);

export type GapWaivedEvent = z.output<typeof GapWaivedEventSchema>;
