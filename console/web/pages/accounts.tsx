import { useState } from 'preact/hooks';
import {
  ACCOUNTS_PER_PAGE,
  type AccountSearch,
  type AccountSummary,
  CONSOLE_ROUTES,
} from '../../shared/api';
import { useFollowHash } from '../components/follow-hash';
import { money, when } from '../components/format';
import { Load, useLoad } from '../components/load';
import { Pager } from '../components/pager';
import { Table } from '../components/table';

const COLUMNS = [
  {
    label: 'Account',
    cell: (a: AccountSummary) => <a href={`#/accounts/${encodeURIComponent(a.id)}`}>{a.id}</a>,
  },
  { label: 'Name', cell: (a: AccountSummary) => a.name ?? '—' },
  { label: 'Owner', cell: (a: AccountSummary) => a.ownerId },
  { label: 'Balance', cell: (a: AccountSummary) => money(a.balance, a.currency), numeric: true },
  {
    label: 'Available',
    cell: (a: AccountSummary) => money(a.available, a.currency),
    numeric: true,
  },
  { label: 'Status', cell: (a: AccountSummary) => a.status },
  { label: 'Created', cell: (a: AccountSummary) => when(a.createdAt) },
];

/** The page's address (`#/accounts?q=alice&cursor=…`): a search can be linked and reloaded. */
function paramsInUrl(): { q: string; cursor: string } {
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '');
  return { q: params.get('q')?.trim() ?? '', cursor: params.get('cursor') ?? '' };
}

/** Shows the query and page in the address bar (replacing the entry: Back leaves the page). */
function putInUrl(q: string, cursor: string): void {
  const params = [
    ...(q ? [`q=${encodeURIComponent(q)}`] : []),
    ...(cursor ? [`cursor=${encodeURIComponent(cursor)}`] : []),
  ].join('&');
  history.replaceState(null, '', `${location.pathname}#/accounts${params ? `?${params}` : ''}`);
}

/**
 * Find an account by id, owner or name prefix (any case); without a query, the most recent
 * accounts. Both read the account directory's indexes, a page at a time (§31).
 */
export function AccountsPage() {
  const [draft, setDraft] = useState(() => paramsInUrl().q);
  const [shown, setShownState] = useState(paramsInUrl);
  const setShown = (q: string, cursor: string) => {
    putInUrl(q, cursor);
    setShownState({ q, cursor });
  };
  const query = shown.q;
  // A link or typed address with another `?q=` while the page is open: follow it.
  useFollowHash(() => {
    const now = paramsInUrl();
    setDraft(now.q);
    setShownState(now);
  });
  const params = new URLSearchParams();
  if (query) params.set('q', query);
  if (shown.cursor) params.set('cursor', shown.cursor);
  const path = `${CONSOLE_ROUTES.accounts}${params.size > 0 ? `?${params}` : ''}`;
  const [loaded] = useLoad<AccountSearch>(path);
  return (
    <section aria-labelledby="accounts-title">
      <h1 id="accounts-title">Accounts</h1>
      <search>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setShown(draft.trim(), '');
          }}
        >
          <label for="account-query">Account id, owner id or name</label>
          <input
            id="account-query"
            name="q"
            value={draft}
            onInput={(e) => setDraft((e.target as HTMLInputElement).value)}
            placeholder="e.g. 8d5484bc-…, alice or Savings"
          />
          <button type="submit">Find</button>
          {query && (
            <button
              type="button"
              onClick={() => {
                setDraft('');
                setShown('', '');
              }}
            >
              Show recent
            </button>
          )}
        </form>
      </search>
      <Load loaded={loaded} what="accounts">
        {(search) => (
          <>
            <Table
              testId="accounts-table"
              caption={query ? `Accounts matching "${query}"` : 'Most recent accounts'}
              columns={COLUMNS}
              rows={search.items}
              rowKey={(a) => a.id}
              empty={emptyText(query, shown.cursor !== '', search.nextCursor !== undefined)}
            />
            <p class="note">
              {query
                ? "The owner's accounts, newest first, then names starting with it, by name."
                : 'Newest first.'}{' '}
              {ACCOUNTS_PER_PAGE} at a time.
            </p>
            <Pager
              nextCursor={search.nextCursor}
              first={shown.cursor !== ''}
              paging={(cursor) => setShown(query, cursor ?? '')}
            />
          </>
        )}
      </Load>
    </section>
  );
}

/** What an empty page says: absence only of what the index holds from this page on. */
function emptyText(query: string, pastFirst: boolean, more: boolean): string {
  if (pastFirst || more)
    return `Nothing on this page${more ? '; the next page may have more' : ''}.`;
  return query
    ? `No account has the id or owner "${query}", or a name starting with it.`
    : 'There are no accounts yet.';
}
