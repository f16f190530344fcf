import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { METADATA_FILTER_PREFIX } from '../../../functions/contract/search';
import type { Account, EntryRead } from '../../../functions/domain/accounts/model';
import type { Pair } from '../../../functions/domain/search/model';
import { SearchService } from '../../../functions/domain/search/service';
import { DomainError, InvalidInputError } from '../../../functions/domain/shared/errors';
import { createSearchReadStore } from '../../../functions/dynamodb/search/read-store';
import { AccountSearchQuery, TransactionSearchQuery } from '../../../functions/schemas/search';
import {
  type ConsoleSearchResult,
  SEARCH_ACCOUNTS_CURSOR_PARAM,
  SEARCH_OWNER_PARAM,
  type SearchEntryRow,
} from '../../shared/search';
import type { ActionAnswer } from '../http/actions';

/** Characters of an owner (principal) the box accepts. */
const MAX_OWNER = 200;

export interface ConsoleSearch {
  /** The search box's read: a 200 with the pages, or a 400/404 with a message. */
  find(params: URLSearchParams): Promise<ActionAnswer>;
}

/**
 * The console's search box (docs/console.md): the API's own search service (§34) on the
 * dynamodb search store, scoped to the owner the operator typed: exactly what that principal
 * would find through `GET /v1/transactions` and `GET /v1/accounts`.
 */
export function createConsoleSearch(options: {
  client: DynamoDBClient;
  tableName: string;
}): ConsoleSearch {
  return consoleSearchOver(new SearchService(createSearchReadStore(options)));
}

export function consoleSearchOver(service: SearchService): ConsoleSearch {
  return {
    async find(params) {
      const query = parseQuery(params);
      if ('error' in query) return refuse(query.error);
      try {
        return { status: 200, body: await run(service, query) };
      } catch (error) {
        if (error instanceof DomainError && error.code === 'not_found') {
          return { status: 404, body: { error: `${query.owner} has no such account` } };
        }
        if (error instanceof InvalidInputError) {
          return refuse(error.detail);
        }
        throw error;
      }
    },
  };
}

interface ParsedQuery {
  readonly owner: string;
  readonly pairs: readonly Pair[];
  readonly metadataOnly: boolean;
  readonly name?: string;
  readonly accountId?: string;
  readonly limit: number;
  readonly cursor?: string;
  readonly accountsCursor?: string;
}

const ENTRY_ONLY = ['reference', 'paymentId', 'accountId', 'cursor', 'limit'];
const ACCOUNT_ONLY = ['name', 'limit'];

/** The box's query, checked by the API's own query schemas; `{ error }` says what is wrong. */
function parseQuery(params: URLSearchParams): ParsedQuery | { error: string } {
  const raw: Record<string, string> = {};
  for (const [name, value] of params) {
    if (name in raw) return { error: `the parameter ${name} is given more than once` };
    raw[name] = value;
  }
  const { [SEARCH_OWNER_PARAM]: owner = '', [SEARCH_ACCOUNTS_CURSOR_PARAM]: accountsCursor } = raw;
  if (!owner.trim() || owner.length > MAX_OWNER) {
    return { error: `give the owner (principal) to search as, 1–${MAX_OWNER} characters` };
  }
  const metadata = Object.fromEntries(
    Object.entries(raw).filter(([name]) => name.startsWith(METADATA_FILTER_PREFIX)),
  );
  const pick = (names: string[]) =>
    Object.fromEntries(Object.entries(raw).filter(([name]) => names.includes(name)));
  const entries = TransactionSearchQuery.safeParse({ ...metadata, ...pick(ENTRY_ONLY) });
  const accounts = AccountSearchQuery.safeParse({ ...metadata, ...pick(ACCOUNT_ONLY) });
  const known = new Set([SEARCH_OWNER_PARAM, SEARCH_ACCOUNTS_CURSOR_PARAM, ...ENTRY_ONLY]);
  const unknown = Object.keys(raw).find(
    (name) => !known.has(name) && !ACCOUNT_ONLY.includes(name) && !(name in metadata),
  );
  if (unknown !== undefined) return { error: `unknown parameter ${unknown}` };
  if (!entries.success) return { error: issues(entries.error.issues) };
  if (!accounts.success) return { error: issues(accounts.error.issues) };
  const { reference, paymentId, accountId, limit, cursor } = entries.data;
  const pairs: Pair[] = [
    ...Object.entries(metadata).map(([field, value]) => ({ field, value })),
    ...(reference === undefined ? [] : [{ field: 'reference', value: reference }]),
    ...(paymentId === undefined ? [] : [{ field: 'paymentId', value: paymentId }]),
  ];
  const { name } = accounts.data;
  if (pairs.length === 0 && name === undefined) {
    return { error: 'give at least one filter: metadata key=value, reference, paymentId or name' };
  }
  return {
    owner: owner.trim(),
    pairs,
    metadataOnly: reference === undefined && paymentId === undefined && accountId === undefined,
    limit,
    ...(name === undefined ? {} : { name }),
    ...(accountId === undefined ? {} : { accountId }),
    ...(cursor === undefined ? {} : { cursor }),
    ...(accountsCursor === undefined ? {} : { accountsCursor }),
  };
}

function issues(list: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return list.map((i) => `${i.path.map(String).join('.') || 'query'}: ${i.message}`).join('; ');
}

/** Transactions when a pair is given; accounts when only metadata (and name) filters are. */
async function run(service: SearchService, q: ParsedQuery): Promise<ConsoleSearchResult> {
  const transactions =
    q.pairs.length === 0
      ? undefined
      : await service.transactions(q.owner, {
          filters: {
            pairs: q.pairs,
            ...(q.accountId === undefined ? {} : { accountId: q.accountId }),
          },
          limit: q.limit,
          ...(q.cursor === undefined ? {} : { cursor: q.cursor }),
        });
  const accounts = q.metadataOnly
    ? await service.accounts(q.owner, {
        filters: { pairs: q.pairs, ...(q.name === undefined ? {} : { name: q.name }) },
        limit: q.limit,
        ...(q.accountsCursor === undefined ? {} : { cursor: q.accountsCursor }),
      })
    : undefined;
  return {
    owner: q.owner,
    ...(transactions
      ? { transactions: { ...transactions, items: transactions.items.map(row) } }
      : {}),
    ...(accounts ? { accounts: { ...accounts, items: accounts.items.map(summary(q.owner)) } } : {}),
  };
}

function row(entry: EntryRead): SearchEntryRow {
  const { id, accountId, type, amount, currency, status, createdAt } = entry;
  return {
    id,
    accountId,
    type,
    amount,
    currency,
    status,
    createdAt,
    ...(entry.reference === undefined ? {} : { reference: entry.reference }),
    ...(entry.paymentId === undefined ? {} : { paymentId: entry.paymentId }),
    ...(entry.metadata === undefined ? {} : { metadata: entry.metadata }),
  };
}

const summary = (ownerId: string) => (account: Account) => ({ ...account, ownerId });

const refuse = (error: string): ActionAnswer => ({ status: 400, body: { error } });
