import { METADATA_FILTER_PREFIX } from '../../contract/search';
import type { Pair, SearchFilters } from '../../domain/search/model';
import type { SearchService } from '../../domain/search/service';
import { ValidationError } from '../../domain/shared/errors';
import type { ACCOUNT_ROUTES } from '../accounts/spec';
import type { RouteHandlers } from '../router';
import type { HttpEvent } from '../types';
import type { SEARCH_ROUTES } from './spec';

/** `GET /v1/accounts` (its spec is the accounts' own: api/accounts/spec.ts). */
export function searchAccountsHandler(
  service: SearchService,
): RouteHandlers<typeof ACCOUNT_ROUTES>['searchAccounts'] {
  return ({ principal, event, query }) => {
    refuseRepeated(event);
    const filters: SearchFilters = {
      pairs: metadataPairsOf(query),
      ...(query.name === undefined ? {} : { name: query.name }),
    };
    return service.accounts(principal, { filters, limit: query.limit, cursor: query.cursor });
  };
}

/** Search (docs/contract.md §34): the spec parsed the query; the filters are read from it. */
export function searchHandlers(service: SearchService): RouteHandlers<typeof SEARCH_ROUTES> {
  return {
    searchTransactions: ({ principal, event, query }) => {
      refuseRepeated(event);
      const pairs = [
        ...metadataPairsOf(query),
        ...(query.reference === undefined ? [] : [{ field: 'reference', value: query.reference }]),
        ...(query.paymentId === undefined ? [] : [{ field: 'paymentId', value: query.paymentId }]),
      ];
      const filters: SearchFilters = {
        pairs,
        ...(query.accountId === undefined ? {} : { accountId: query.accountId }),
      };
      return service.transactions(principal, { filters, limit: query.limit, cursor: query.cursor });
    },
  };
}

/** `metadata.<key>` parameters as pairs (the schema let only valid ones through). */
function metadataPairsOf(query: Record<string, unknown>): Pair[] {
  return Object.entries(query).flatMap(([name, value]) =>
    name.startsWith(METADATA_FILTER_PREFIX) && typeof value === 'string'
      ? [{ field: name, value }]
      : [],
  );
}

/**
 * API Gateway joins a repeated parameter's values with commas, indistinguishable from a comma in
 * one value: the raw query string tells them apart (`400 validation_failed`, §36).
 */
function refuseRepeated(event: HttpEvent): void {
  const seen = new Set<string>();
  for (const [name] of new URLSearchParams(event.rawQueryString ?? '')) {
    if (seen.has(name)) {
      throw new ValidationError(`The query parameter ${name} is given more than once.`, [
        { path: `query.${name}`, message: 'given more than once' },
      ]);
    }
    seen.add(name);
  }
}
