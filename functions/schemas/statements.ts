import * as z from 'zod';
import { DEFAULT_STATEMENT_PAGE, MAX_STATEMENT_PAGE } from '../contract/effective-time';
import { Transaction } from './accounts';
import { lazySchema } from './lazy';
import { Currency, Timestamp, Uuid } from './shared';

/** Wire shapes of statements, effective balances and period closes (docs/contract.md §26). */

const Instant = lazySchema(() => z.iso.datetime({ offset: true }));

export const StatementQuery = lazySchema(() =>
  z.strictObject({
    from: Instant.meta({
      description: 'effective time, inclusive: the window starts here',
      example: '2026-11-01T00:00:00Z',
    }),
    to: Instant.meta({
      description: 'effective time, exclusive; later than from, at most 366 days after it',
      example: '2026-12-01T00:00:00Z',
    }),
    limit: z.coerce.number().int().min(1).max(MAX_STATEMENT_PAGE).default(DEFAULT_STATEMENT_PAGE),
    cursor: z.string().min(1).max(1024).optional(),
  }),
);

const Money = lazySchema(() => z.number().int());

export const Statement = lazySchema(() =>
  z.object({
    accountId: Uuid,
    currency: Currency,
    from: Timestamp,
    to: Timestamp,
    openingBalance: Money.meta({ description: 'the entries effective before from' }),
    closingBalance: Money.meta({ description: 'openingBalance + totalCredits − totalDebits' }),
    totalCredits: Money.meta({
      description: 'what the window added to the balance (whole window)',
    }),
    totalDebits: Money.meta({ description: 'what the window took from it (whole window)' }),
    items: z.array(Transaction).meta({
      description: 'entries with from ≤ effectiveAt < to, by effectiveAt then commit order',
    }),
    nextCursor: z.string().nullable(),
  }),
);

export const EffectiveBalance = lazySchema(() =>
  z.object({
    accountId: Uuid,
    effectiveAt: Timestamp,
    balance: z.number().int().meta({
      description: 'the sum of the posted entries effective at or before effectiveAt',
    }),
  }),
);

export const PeriodCloseBody = lazySchema(() =>
  z.strictObject({
    through: Instant.meta({
      description:
        "not later than now, not before the account's closedThrough; entries effective at or " +
        'before it are refused from then on (period_closed)',
      example: '2026-11-30T23:59:59.999Z',
    }),
  }),
);
