import * as z from 'zod';
import { Amount, Currency, PaymentId, Uuid } from './schemas';
import { utf8Bytes } from './unicode';

/**
 * `source` becomes part of a sort key (`SOURCE#<source>`), which DynamoDB limits to 1,024
 * bytes: the limit is in UTF-8 bytes, checked before anything is written (docs/contract.md §6).
 */
export const MAX_EVENT_SOURCE_BYTES = 512;

/** A positive integer, as a JSON number or a decimal string (CloudEvents extensions are often strings). */
export const SequenceNumber = z.union([
  z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, 'must be a decimal integer ≥ 1')
    .transform(Number)
    .pipe(z.number().max(Number.MAX_SAFE_INTEGER)),
]);

/** CONTRACT §6: a CloudEvents 1.0 ledger event. Extension attributes are allowed; data is strict. */
export const LedgerEventSchema = z.looseObject({
  specversion: z.literal('1.0'),
  id: z.string().min(1).max(256),
  source: z
    .string()
    .min(1)
    .refine((source) => utf8Bytes(source) <= MAX_EVENT_SOURCE_BYTES, {
      message: `must be at most ${MAX_EVENT_SOURCE_BYTES} UTF-8 bytes`,
    }),
  type: z.enum(['ledger.credit.v1', 'ledger.debit.v1']),
  subject: Uuid,
  sequence: SequenceNumber.optional(),
  time: z.iso.datetime({ offset: true }).optional(),
  datacontenttype: z.literal('application/json').optional(),
  data: z.strictObject({
    amount: Amount,
    currency: Currency,
    paymentId: PaymentId.optional(),
    reference: z.string().min(1).max(256).optional(),
  }),
});

export type LedgerEvent = z.output<typeof LedgerEventSchema>;
