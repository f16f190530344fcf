import * as z from 'zod';
import {
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  METADATA_KEY_PATTERN,
} from '../domain/accounts/metadata';
import {
  isIsoCurrency,
  MAX_AMOUNT,
  MAX_OVERDRAFT_LIMIT,
  MIN_AMOUNT,
} from '../domain/accounts/money';
import { lazySchema, once } from './lazy';

/** Request and response shapes of docs/contract.md §5: validation and the OpenAPI document share them. */

export const Currency = lazySchema(() =>
  z
    .string()
    .regex(/^[A-Z]{3}$/, { message: 'must be a three-letter ISO 4217 code', abort: true })
    .refine(isIsoCurrency, 'must be an ISO 4217 currency code')
    .meta({ description: 'ISO 4217 currency code', example: 'EUR' }),
);

/**
 * A whole number of minor units within [min, max]. The bounds are checked first and name
 * themselves, so `1e20` reads "must be at most 1000000000000 minor units" rather than a
 * complaint about integers (issue 49); only an in-range fraction hears "must be an integer".
 */
export function minorUnits(min: number, max: number) {
  return z
    .number()
    .min(min, { message: `must be at least ${min} minor unit${min === 1 ? '' : 's'}`, abort: true })
    .max(max, {
      message: `must be at most ${max} minor units (${max.toExponential()})`,
      abort: true,
    })
    .int('must be an integer number of minor units');
}

export const Amount = lazySchema(() =>
  minorUnits(MIN_AMOUNT, MAX_AMOUNT).meta({
    description: 'Integer amount in minor units',
  }),
);

/** UUIDs are case-insensitive: lower-cased before any comparison, key or fingerprint (docs/contract.md §4). */
export const Uuid = lazySchema(() => z.uuid().overwrite((id) => id.toLowerCase()));

export const PaymentId = lazySchema(() =>
  z
    .string()
    .regex(/^[\x21-\x7e]{1,128}$/, 'must be 1–128 printable ASCII characters without spaces')
    .meta({ description: 'Business unique key per account; never expires' }),
);

/**
 * `metadata` (docs/contract.md §16): 1–20 keys of 1–40 characters `[A-Za-z0-9_.-]`, string
 * values of at most 500 characters. Absent means none; `{}` is refused (give it or leave it out).
 */
export const Metadata = lazySchema(() =>
  z
    .record(
      z.string().regex(METADATA_KEY_PATTERN, 'keys are 1–40 characters of A-Z a-z 0-9 _ . -'),
      z.string().max(MAX_METADATA_VALUE_LENGTH),
    )
    .refine((m) => Object.keys(m).length >= 1, 'must have at least one key when given')
    .refine(
      (m) => Object.keys(m).length <= MAX_METADATA_KEYS,
      `must have at most ${MAX_METADATA_KEYS} keys`,
    )
    .meta({ description: 'Caller-chosen string pairs, echoed wherever the movement is read' }),
);

/** How far below 0 an account's available may go (docs/contract.md §17). */
export const OverdraftLimit = lazySchema(() =>
  minorUnits(0, MAX_OVERDRAFT_LIMIT).meta({
    description: 'How far below 0 available may go, in minor units',
  }),
);

/** A caller's free-text reference on a movement (credits, debits, transfers, holds, events). */
export const Reference = lazySchema(() => z.string().min(1).max(256));
/** Lower-case hex SHA-256 of an export file. */
export const Sha256Hex = lazySchema(() =>
  z.string().regex(/^[0-9a-f]{64}$/, 'lowercase hex SHA-256'),
);

export const Timestamp = lazySchema(() => z.iso.datetime());

/**
 * A movement's `effectiveAt` as a caller or producer gives it (docs/contract.md §26): ISO 8601
 * with an offset, not later than now + 5 s, not before the backdate limit, after the account's
 * closedThrough. No default here: absent, the fingerprint and inbox hash stay what they were.
 */
export const EffectiveAt = lazySchema(() =>
  z.iso.datetime({ offset: true }).meta({
    description:
      'When the movement counts in the books (default: when it is committed); not later than ' +
      'now + 5 s, not more than BACKDATE_LIMIT_DAYS (default 90) back, after closedThrough',
    example: '2026-11-30T23:59:59Z',
  }),
);

/**
 * What a credit, debit, transfer or ledger transaction request may carry besides its amounts
 * (docs/contract.md §5, §16, §26): spread into each body, in this order.
 */
export const movementDetails = once(() => ({
  reference: Reference.optional(),
  paymentId: PaymentId.optional(),
  metadata: Metadata.optional(),
  effectiveAt: EffectiveAt.optional(),
}));

/** `effectiveAt` as stored and answered: UTC with milliseconds. */
export const EffectiveTimestamp = lazySchema(() =>
  Timestamp.meta({
    description: 'When it counts in the books (docs/contract.md §26); createdAt when not given',
  }),
);

/**
 * What a transfer or ledger transaction answers after its amounts (docs/contract.md §10, §16),
 * in this order; `reversed` says what its `reversedAmount` counts.
 */
export function recordedDetails(reversed: string) {
  return {
    reference: z.string().optional(),
    paymentId: z.string().optional(),
    metadata: Metadata.optional(),
    reversedAmount: z.number().int().min(0).optional().meta({ description: reversed }),
    createdAt: Timestamp,
    effectiveAt: EffectiveTimestamp,
  };
}

export const Problem = lazySchema(() =>
  z.object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
);

export const Gaps = lazySchema(() => z.array(z.number().int().min(1)).max(1000));
