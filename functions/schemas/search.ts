import * as z from 'zod';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, METADATA_FILTER_PREFIX } from '../contract/search';
import { MAX_METADATA_VALUE_LENGTH, METADATA_KEY_PATTERN } from '../domain/accounts/metadata';
import { Account, Entry } from './accounts';
import { lazySchema } from './lazy';
import { PaymentId, Reference, Timestamp, Uuid } from './shared';

const Limit = lazySchema(() =>
  z.coerce.number().int().min(1).max(MAX_SEARCH_LIMIT).default(DEFAULT_SEARCH_LIMIT),
);
const Cursor = lazySchema(() => z.string().min(1).max(1024));

/**
 * Besides the declared parameters, only `metadata.<key>=<value>` (a metadata key, a value of
 * at most 500 characters); anything else is `400 validation_failed` naming it.
 */
function metadataFilters(declared: readonly string[]) {
  return (query: Record<string, unknown>, ctx: z.RefinementCtx) => {
    for (const [name, value] of Object.entries(query)) {
      if (declared.includes(name)) continue;
      const key = name.startsWith(METADATA_FILTER_PREFIX)
        ? name.slice(METADATA_FILTER_PREFIX.length)
        : undefined;
      if (key === undefined || !METADATA_KEY_PATTERN.test(key)) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'unknown query parameter' });
      } else if (typeof value !== 'string' || value.length > MAX_METADATA_VALUE_LENGTH) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `must be at most ${MAX_METADATA_VALUE_LENGTH} characters`,
        });
      }
    }
  };
}

/** `GET /v1/accounts` (docs/contract.md §34). */
export const AccountSearchQuery = lazySchema(() =>
  z
    .looseObject({
      name: z
        .string()
        .min(1)
        .max(200)
        .optional()
        .meta({ description: 'a case-insensitive prefix of the name' }),
      limit: Limit,
      cursor: Cursor.optional(),
    })
    .superRefine(metadataFilters(['name', 'limit', 'cursor'])),
);

/** `GET /v1/transactions` (docs/contract.md §34): at least one filter (the service checks). */
export const TransactionSearchQuery = lazySchema(() =>
  z
    .looseObject({
      reference: Reference.optional(),
      paymentId: PaymentId.optional(),
      accountId: Uuid.optional().meta({
        description: 'entries of this account only; the answer then has indexedThrough',
      }),
      limit: Limit,
      cursor: Cursor.optional(),
    })
    .superRefine(metadataFilters(['reference', 'paymentId', 'accountId', 'limit', 'cursor'])),
);

const IndexedThrough = lazySchema(() =>
  Timestamp.nullable().meta({
    description:
      "with accountId: the commit time through which the account's changes are indexed " +
      '(eventually consistent); else null',
  }),
);

export const AccountSearchPage = lazySchema(() =>
  z.object({
    items: z.array(Account),
    nextCursor: z.string().nullable(),
    indexedThrough: z.null(),
  }),
);

export const TransactionSearchPage = lazySchema(() =>
  z.object({
    items: z.array(Entry),
    nextCursor: z.string().nullable(),
    indexedThrough: IndexedThrough,
  }),
);

/** A message of `search-index` (docs/contract.md §34): what the projector hands the indexer. */
export const IndexJobMessage = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('journal'),
      accountId: z.string().min(1),
      from: z.number().int().min(1),
      through: z.number().int().min(1),
    }),
    z.strictObject({ kind: z.literal('account'), accountId: z.string().min(1) }),
  ]),
);
