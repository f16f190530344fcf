/**
 * The console's search box (docs/console.md, docs/contract.md §34): its parameters and shapes,
 * beside ./api.ts (its route is CONSOLE_ROUTES.search). Plain TypeScript: no Node, no DOM.
 */

/**
 * The search box's query (docs/console.md): `owner` (the principal searched as) and at least
 * one filter: `metadata.<key>=<value>`, `reference`, `paymentId`, `name` (accounts); optional
 * `accountId`, `cursor` (transactions), `accountsCursor`. The API's own search (§34) answers.
 */
export const SEARCH_OWNER_PARAM = 'owner';
export const SEARCH_ACCOUNTS_CURSOR_PARAM = 'accountsCursor';

/** An entry the search found; `currency` is its account's. */
export interface SearchEntryRow {
  readonly id: string;
  readonly accountId: string;
  readonly type: string;
  readonly amount: number;
  readonly currency: string;
  readonly status: string;
  readonly createdAt: string;
  readonly reference?: string;
  readonly paymentId?: string;
  readonly metadata?: Readonly<Record<string, string>>;
}

/** One page of a search, as the API answers it (§34). */
export interface SearchPageOf<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
  readonly indexedThrough: string | null;
}

/** An account the search found (the API's account, with its owner). */
export interface SearchAccountRow {
  readonly id: string;
  readonly ownerId: string;
  readonly name?: string;
  readonly currency: string;
  readonly balance: number;
  readonly available: number;
  readonly status: string;
  readonly createdAt: string;
  readonly metadata?: Readonly<Record<string, string>>;
}

export interface ConsoleSearchResult {
  readonly owner: string;
  /** Absent: no transaction filter (only `name`). */
  readonly transactions?: SearchPageOf<SearchEntryRow>;
  /** Absent: a filter accounts do not have (reference, paymentId, accountId), or none. */
  readonly accounts?: SearchPageOf<SearchAccountRow>;
}
