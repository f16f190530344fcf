import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { CONSOLE_ROUTES } from '../../shared/api';
import {
  type ConsoleSearchResult,
  SEARCH_ACCOUNTS_CURSOR_PARAM,
  type SearchAccountRow,
  type SearchEntryRow,
  type SearchPageOf,
} from '../../shared/search';
import { useFollowHash } from '../components/follow-hash';
import { money, when } from '../components/format';
import { Load, useLoad } from '../components/load';
import { Pager } from '../components/pager';
import { SearchForm } from '../components/search-form';
import { Table } from '../components/table';

const accountLink = (id: string) => <a href={`#/accounts/${encodeURIComponent(id)}`}>{id}</a>;
const metadataText = (metadata: Readonly<Record<string, string>> | undefined) =>
  Object.entries(metadata ?? {})
    .map(([key, value]) => `${key}=${value}`)
    .join(', ') || '—';

const ENTRY_COLUMNS = [
  { label: 'Entry', cell: (e: SearchEntryRow) => e.id },
  { label: 'Account', cell: (e: SearchEntryRow) => accountLink(e.accountId) },
  { label: 'Type', cell: (e: SearchEntryRow) => e.type },
  { label: 'Amount', cell: (e: SearchEntryRow) => money(e.amount, e.currency), numeric: true },
  { label: 'Reference', cell: (e: SearchEntryRow) => e.reference ?? '—' },
  { label: 'Payment id', cell: (e: SearchEntryRow) => e.paymentId ?? '—' },
  { label: 'Metadata', cell: (e: SearchEntryRow) => metadataText(e.metadata) },
  { label: 'Status', cell: (e: SearchEntryRow) => e.status },
  { label: 'Created', cell: (e: SearchEntryRow) => when(e.createdAt) },
];

type FoundAccount = SearchAccountRow;
const ACCOUNT_COLUMNS = [
  { label: 'Account', cell: (a: FoundAccount) => accountLink(a.id) },
  { label: 'Name', cell: (a: FoundAccount) => a.name ?? '—' },
  { label: 'Balance', cell: (a: FoundAccount) => money(a.balance, a.currency), numeric: true },
  { label: 'Metadata', cell: (a: FoundAccount) => metadataText(a.metadata) },
  { label: 'Created', cell: (a: FoundAccount) => when(a.createdAt) },
];

/** The search of the page's address (`#/search?owner=alice&metadata.order=42`). */
const paramsInUrl = () => new URLSearchParams(location.hash.split('?')[1] ?? '');

function putParamsInUrl(params: URLSearchParams): void {
  const query = params.toString();
  history.replaceState(null, '', `${location.pathname}#/search${query ? `?${query}` : ''}`);
}

/**
 * Find money by the owner's own ids (docs/console.md): the API's search (§34) as the owner
 * typed would see it, newest first, a page at a time; the search is in the address.
 */
export function SearchPage() {
  const [params, setParamsState] = useState(paramsInUrl);
  const setParams = (next: URLSearchParams) => {
    putParamsInUrl(next);
    setParamsState(next);
  };
  useFollowHash(() => setParamsState(paramsInUrl()));
  const query = params.toString();
  return (
    <section aria-labelledby="search-title">
      <h1 id="search-title">Search</h1>
      <SearchForm key={query} params={params} onSearch={setParams} />
      {query && <Results query={query} params={params} onPage={setParams} />}
    </section>
  );
}

function Results(props: {
  query: string;
  params: URLSearchParams;
  onPage: (params: URLSearchParams) => void;
}) {
  const [loaded] = useLoad<ConsoleSearchResult>(`${CONSOLE_ROUTES.search}?${props.query}`);
  const pageWith = (name: string, cursor: string | null) => {
    const next = new URLSearchParams(props.params);
    if (cursor === null) next.delete(name);
    else next.set(name, cursor);
    props.onPage(next);
  };
  return (
    <Load loaded={loaded} what="the search">
      {(found) => (
        <>
          {found.transactions && (
            <Found
              title={`Transactions of ${found.owner}`}
              testId="search-transactions"
              page={found.transactions}
              columns={ENTRY_COLUMNS}
              paging={(cursor) => pageWith('cursor', cursor)}
              first={props.params.has('cursor')}
            />
          )}
          {found.accounts && (
            <Found
              title={`Accounts of ${found.owner}`}
              testId="search-accounts"
              page={found.accounts}
              columns={ACCOUNT_COLUMNS}
              paging={(cursor) => pageWith(SEARCH_ACCOUNTS_CURSOR_PARAM, cursor)}
              first={props.params.has(SEARCH_ACCOUNTS_CURSOR_PARAM)}
            />
          )}
        </>
      )}
    </Load>
  );
}

function Found<T extends { readonly id: string }>(props: {
  title: string;
  testId: string;
  page: SearchPageOf<T>;
  columns: readonly { label: string; cell: (row: T) => ComponentChildren }[];
  paging: (cursor: string | null) => void;
  first: boolean;
}) {
  const { page } = props;
  return (
    <>
      <h2>{props.title}</h2>
      <Table
        testId={props.testId}
        caption={`${props.title}, newest first`}
        columns={props.columns}
        rows={page.items}
        rowKey={(row) => row.id}
        empty={`Nothing on this page${page.nextCursor ? '; the next page may have more' : ''}.`}
      />
      <p class="note">
        {page.indexedThrough
          ? `Indexed through ${when(page.indexedThrough)}.`
          : 'The index follows the journal within seconds.'}
      </p>
      <Pager nextCursor={page.nextCursor} first={props.first} paging={props.paging} />
    </>
  );
}
