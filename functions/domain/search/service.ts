import { MAX_SEARCH_FILTERS } from '../../contract/search';
import { type Account, accountView, type EntryRead, ownedBy, readEntry } from '../accounts/model';
import { ValidationError } from '../shared/errors';
import { EVERY_ACCOUNT, type Pair, type SearchFilters, type SearchKind } from './model';
import type { IndexPage, SearchReadPort } from './port';

export interface SearchPage<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
  /** The commit time through which the account's changes are indexed; null without `accountId`. */
  readonly indexedThrough: string | null;
}

export interface SearchRequest {
  readonly filters: SearchFilters;
  readonly limit: number;
  readonly cursor?: string;
}

/**
 * Search (docs/contract.md §34): the caller's accounts, or entries of the caller's accounts,
 * that carry every given pair, newest first. Index keys hash the owner, so another principal's
 * objects are never found. ONE Query per page, of the rarest filter's partition (the counts
 * say which); the other filters are checked over the pairs copied onto each index item.
 */
export class SearchService {
  constructor(private readonly port: SearchReadPort) {}

  async accounts(principal: string, request: SearchRequest): Promise<SearchPage<Account>> {
    checkCount(request.filters);
    const page = await this.page(principal, 'account', request, EVERY_ACCOUNT);
    const found = await this.port.accounts(page.hits.map((hit) => hit.id));
    const items = found.flatMap((a) => (a?.ownerId === principal ? [accountView(a)] : []));
    return { items, nextCursor: page.nextCursor, indexedThrough: null };
  }

  async transactions(principal: string, request: SearchRequest): Promise<SearchPage<EntryRead>> {
    const { filters } = request;
    if (filters.pairs.length === 0) {
      throw new ValidationError(
        'Give at least one filter: metadata.<key>=<value>, reference or paymentId.',
      );
    }
    checkCount(filters);
    let indexedThrough: string | null = null;
    if (filters.accountId !== undefined) {
      ownedBy(await this.port.account(filters.accountId), principal, 'Account');
      indexedThrough = (await this.port.readHead(filters.accountId))?.committedAt ?? null;
    }
    const page = await this.page(principal, 'entry', request, undefined);
    const found = await this.port.entries(page.hits);
    const owned = await this.ownedAccounts(principal, found);
    const items = found.flatMap((entry) =>
      entry && owned.has(entry.accountId) ? [readEntry(entry)] : [],
    );
    return { items, nextCursor: page.nextCursor, indexedThrough };
  }

  /**
   * The accounts of these entries that the caller owns now: an index item written before an
   * operator moved the account to another owner (`reown`) must not show its entries to the old
   * owner. One read of the page's distinct accounts.
   */
  private async ownedAccounts(
    principal: string,
    entries: readonly ({ readonly accountId: string } | undefined)[],
  ): Promise<Set<string>> {
    const ids = [...new Set(entries.flatMap((entry) => (entry ? [entry.accountId] : [])))];
    if (ids.length === 0) return new Set();
    const accounts = await this.port.accounts(ids);
    return new Set(accounts.flatMap((a) => (a?.ownerId === principal ? [a.id] : [])));
  }

  /** One page of the rarest filter; `fallback` is queried when there is no pair. */
  private async page(
    principal: string,
    kind: SearchKind,
    { filters, limit, cursor }: SearchRequest,
    fallback: Pair | undefined,
  ): Promise<IndexPage> {
    const empty: IndexPage = { hits: [], nextCursor: null };
    let rarest = fallback;
    let others: readonly Pair[] = [];
    if (filters.pairs.length > 0) {
      const counts = await this.port.counts(principal, kind, filters.pairs);
      const least = counts.indexOf(Math.min(...counts));
      if ((counts[least] ?? 0) === 0) return empty;
      rarest = filters.pairs[least];
      others = filters.pairs.filter((_, i) => i !== least);
    }
    if (!rarest) return empty;
    return this.port.query({
      ownerId: principal,
      kind,
      rarest,
      others,
      ...(filters.name === undefined ? {} : { name: filters.name.toLowerCase() }),
      ...(filters.accountId === undefined ? {} : { accountId: filters.accountId }),
      limit,
      ...(cursor === undefined ? {} : { cursor }),
    });
  }
}

function checkCount(filters: SearchFilters): void {
  const count = filters.pairs.length + (filters.name === undefined ? 0 : 1);
  if (count > MAX_SEARCH_FILTERS) {
    throw new ValidationError(`Give at most ${MAX_SEARCH_FILTERS} filters; ${count} were given.`);
  }
}
