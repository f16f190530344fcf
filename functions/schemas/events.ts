import * as z from 'zod';
import { GAP_WAIVED_EVENT_TYPE, MAX_WAIVER_NUMBERS, MAX_WAIVER_REASON } from '../contract/gaps';
import { utf8Bytes } from '../domain/shared/unicode';
import { Amount, Currency, PaymentId, Reference, Uuid } from './shared';

/**
 * `source` becomes part of a sort key (`SOURCE#<source>`), which DynamoDB limits to 1,024
 * bytes: the limit is in UTF-8 bytes, checked before anything is written (docs/contract.md §6).
 */
export const MAX_EVENT_SOURCE_BYTES = 512;

const EventSource = z
  .string()
  .min(1)
  .refine((source) => utf8Bytes(source) <= MAX_EVENT_SOURCE_BYTES, {
    message: `must be at most ${MAX_EVENT_SOURCE_BYTES} UTF-8 bytes`,
  });

/** A positive integer, as a JSON number or a decimal string (CloudEvents extensions are often strings). */
export const SequenceNumber = z.union([
  z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, 'must be a decimal integer ≥ 1')
    .transform(Number)
    .pipe(z.number().max(Number.MAX_SAFE_INTEGER)),
]);

export const LEDGER_EVENT_TYPES = {
  'ledger.credit.v1': 'credit',
  'ledger.debit.v1': 'debit',
  /** docs/contract.md §10: from `subject` to `data.toAccountId`, both of one owner. */
  'ledger.transfer.v1': 'transfer',
} as const;

type EventTypeName = keyof typeof LEDGER_EVENT_TYPES;
const EVENT_TYPE_NAMES = Object.keys(LEDGER_EVENT_TYPES) as [EventTypeName, ...EventTypeName[]];

/**
 * docs/contract.md §6, §10: a CloudEvents 1.0 ledger event. Extension attributes are allowed;
 * data is strict: `toAccountId` is required for a transfer, refused otherwise, and must differ
 * from `subject` (docs/contract.md §10).
 */
export const LedgerEventSchema = z
  .looseObject({
    specversion: z.literal('1.0'),
    id: z.string().min(1).max(256),
    source: EventSource,
    type: z.enum(EVENT_TYPE_NAMES),
    subject: Uuid,
    sequence: SequenceNumber.optional(),
    time: z.iso.datetime({ offset: true }).optional(),
    datacontenttype: z.literal('application/json').optional(),
    data: z.strictObject({
      toAccountId: Uuid.optional(),
      amount: Amount,
      currency: Currency,
      paymentId: PaymentId.optional(),
      reference: Reference.optional(),
    }),
  })
  .superRefine((event, ctx) => {
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
  });

export type LedgerEvent = z.output<typeof LedgerEventSchema>;

/**
 * docs/contract.md §18: a producer declares numbers of its own sequence (its `source`, for the
 * account `subject`) that will never come. Both `numbers` and a `reason` are required.
 */
export const GapWaivedEventSchema = z.looseObject({
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
});

export type GapWaivedEvent = z.output<typeof GapWaivedEventSchema>;
