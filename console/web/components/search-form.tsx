import { useState } from 'preact/hooks';
import { SEARCH_OWNER_PARAM } from '../../shared/search';

/** What the form holds; `metadata` is one `key=value` a line. */
interface Draft {
  owner: string;
  metadata: string;
  reference: string;
  paymentId: string;
  accountId: string;
  name: string;
}

const FIELDS = [
  { key: 'reference', label: 'Reference' },
  { key: 'paymentId', label: 'Payment id' },
  { key: 'accountId', label: 'Account id (optional)' },
  { key: 'name', label: 'Account name prefix' },
] as const;

/** The form's fields from a search's parameters (the page's address). */
function draftOf(params: URLSearchParams): Draft {
  const metadata = [...params]
    .filter(([name]) => name.startsWith('metadata.'))
    .map(([name, value]) => `${name.slice('metadata.'.length)}=${value}`)
    .join('\n');
  const get = (name: string) => params.get(name) ?? '';
  return {
    owner: get(SEARCH_OWNER_PARAM),
    metadata,
    reference: get('reference'),
    paymentId: get('paymentId'),
    accountId: get('accountId'),
    name: get('name'),
  };
}

/**
 * A search's parameters from the form: blank fields left out; a metadata line without `=` is
 * sent as it is typed, so the server says what is wrong with it.
 */
function paramsOf(draft: Draft): URLSearchParams {
  const params = new URLSearchParams();
  params.set(SEARCH_OWNER_PARAM, draft.owner.trim());
  for (const line of draft.metadata.split('\n')) {
    const text = line.trim();
    if (!text) continue;
    const at = text.indexOf('=');
    params.append(
      `metadata.${at < 0 ? text : text.slice(0, at)}`,
      at < 0 ? '' : text.slice(at + 1),
    );
  }
  for (const { key } of FIELDS) {
    const value = draft[key].trim();
    if (value) params.set(key, value);
  }
  return params;
}

/** The search box: an owner and filters; `onSearch` gets the parameters to put in the URL. */
export function SearchForm(props: {
  params: URLSearchParams;
  onSearch: (params: URLSearchParams) => void;
}) {
  const [draft, setDraft] = useState(() => draftOf(props.params));
  const set = (key: keyof Draft) => (e: Event) =>
    setDraft({ ...draft, [key]: (e.target as HTMLInputElement).value });
  return (
    <search>
      <form
        class="search-box"
        onSubmit={(e) => {
          e.preventDefault();
          props.onSearch(paramsOf(draft));
        }}
      >
        <div class="field">
          <label for="search-owner">Owner (principal)</label>
          <input id="search-owner" value={draft.owner} onInput={set('owner')} />
        </div>
        <label for="search-metadata">Metadata, one key=value a line</label>
        <textarea
          id="search-metadata"
          rows={2}
          value={draft.metadata}
          onInput={set('metadata')}
          placeholder="order=42"
        />
        {FIELDS.map(({ key, label }) => (
          <div key={key} class="field">
            <label for={`search-${key}`}>{label}</label>
            <input id={`search-${key}`} value={draft[key]} onInput={set(key)} />
          </div>
        ))}
        <button type="submit" class="primary">
          Search
        </button>
      </form>
    </search>
  );
}
