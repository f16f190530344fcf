import { MAX_SEARCH_FILTERS, MAX_SEARCH_LIMIT } from '../../functions/contract/search';
import { intOption, parseCommandArgs, stringOption } from '../args';
import { reach } from '../callbacks';
import { expectStatus, ledgerClient } from '../client';
import type { Command } from '../command';
import { apiUrl, type Env } from '../config';
import { UsageError } from '../errors';

const NAME = 'search';

export interface SearchArgs {
  readonly help: false;
  readonly url: string;
  readonly principal: string;
  /** Query parameters: `metadata.<key>`, `reference`, `paymentId`, `accountId`, `name`. */
  readonly query: Readonly<Record<string, string>>;
  readonly accounts: boolean;
  readonly pageSize: number;
}

const OPTIONS = {
  url: { type: 'string' },
  principal: { type: 'string' },
  reference: { type: 'string' },
  'payment-id': { type: 'string' },
  account: { type: 'string' },
  accounts: { type: 'boolean' },
  name: { type: 'string' },
  'page-size': { type: 'string' },
} as const;

/** `--metadata k=v` may repeat (parseArgs' strict options do not): taken out first. */
function metadataOf(argv: readonly string[]): { pairs: [string, string][]; rest: string[] } {
  const pairs: [string, string][] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const inline = arg.startsWith('--metadata=') ? arg.slice('--metadata='.length) : undefined;
    if (arg !== '--metadata' && inline === undefined) {
      rest.push(arg);
      continue;
    }
    const pair = inline ?? argv[++i];
    const at = pair?.indexOf('=') ?? -1;
    if (pair === undefined || at < 1) {
      throw new UsageError('--metadata takes <key>=<value>', NAME);
    }
    pairs.push([pair.slice(0, at), pair.slice(at + 1)]);
  }
  return { pairs, rest };
}

export function parseSearchArgs(argv: readonly string[], env: Env): SearchArgs | { help: true } {
  const { pairs, rest } = metadataOf(argv);
  const { values, help } = parseCommandArgs(NAME, rest, OPTIONS);
  if (help) return { help: true };
  const accounts = values.accounts === true;
  const query: Record<string, string> = {};
  for (const [key, value] of pairs) query[`metadata.${key}`] = value;
  const optional = (name: string, param: string) => {
    const value = stringOption(values, name);
    if (value !== undefined) query[param] = value;
  };
  if (accounts) optional('name', 'name');
  else {
    optional('reference', 'reference');
    optional('payment-id', 'paymentId');
    optional('account', 'accountId');
    if (Object.keys(query).length === 0) {
      throw new UsageError('give --metadata <k=v>, --reference or --payment-id', NAME);
    }
  }
  if (Object.keys(query).length > MAX_SEARCH_FILTERS + 1) {
    throw new UsageError(`at most ${MAX_SEARCH_FILTERS} filters`, NAME);
  }
  return {
    help: false,
    url: apiUrl(stringOption(values, 'url'), env, NAME),
    principal: stringOption(values, 'principal') ?? 'demo',
    query,
    accounts,
    pageSize:
      intOption(values, 'page-size', NAME, { min: 1, max: MAX_SEARCH_LIMIT }) ?? MAX_SEARCH_LIMIT,
  };
}

interface Page {
  readonly items: readonly (Found & Record<string, unknown>)[];
  readonly nextCursor: string | null;
  readonly indexedThrough?: string | null;
}

interface Found {
  readonly id: string;
  readonly createdAt: string;
  readonly metadata?: Record<string, string>;
}

/** One line per item: when, what, its id, its metadata. */
function line(item: Found & Record<string, unknown>): string {
  const what =
    'type' in item ? `${String(item.type)} ${String(item.amount)}` : String(item.name ?? '');
  const metadata = item.metadata ? ` ${JSON.stringify(item.metadata)}` : '';
  return `  ${item.createdAt}  ${what.padEnd(24)} ${item.id}${metadata}`;
}

export const searchCommand: Command = {
  name: NAME,
  help: `Usage: npm run cli -- search --metadata <key>=<value> [options]

Prints the caller's entries carrying every given pair (GET /v1/transactions), newest first,
every page, then how many; with --accounts, the caller's accounts (GET /v1/accounts).
Eventually consistent: an entry is found within seconds of its 201.

Options:
  --metadata <k>=<v>   a metadata pair (repeat for more; ANDed, at most ${MAX_SEARCH_FILTERS} filters)
  --reference <r>      the entry's reference
  --payment-id <p>     the entry's paymentId
  --account <id>       entries of this account only (the answer's indexedThrough is printed)
  --accounts           search accounts instead (with --metadata and/or --name)
  --name <prefix>      with --accounts: a case-insensitive prefix of the name
  --principal <id>     X-Principal-Id of the owner (default demo)
  --page-size <n>      items per request (default ${MAX_SEARCH_LIMIT}, at most ${MAX_SEARCH_LIMIT})
  --url <url>          HTTP API (default: http://127.0.0.1:$PORT, PORT defaults to 3000)
  -h, --help           this help`,
  async run(argv, ctx) {
    const args = parseSearchArgs(argv, ctx.env);
    if (args.help) {
      ctx.out(searchCommand.help);
      return 0;
    }
    const api = ledgerClient(args.url, ctx.fetch, args.principal);
    const path = args.accounts ? '/v1/accounts' : '/v1/transactions';
    let cursor: string | undefined;
    let count = 0;
    let indexedThrough: string | null = null;
    do {
      const query = { ...args.query, limit: args.pageSize, ...(cursor ? { cursor } : {}) };
      // `metadata.<key>` parameters are open-ended; the typed client declares the fixed ones.
      const params = { query: query as { limit: number } };
      const what = `GET ${path}`;
      const page: Page = args.accounts
        ? expectStatus(
            await reach(args.url, api.GET('/v1/accounts', { params }), ctx.signal),
            200,
            what,
          )
        : expectStatus(
            await reach(args.url, api.GET('/v1/transactions', { params }), ctx.signal),
            200,
            what,
          );
      for (const item of page.items) ctx.out(line(item));
      count += page.items.length;
      indexedThrough = page.indexedThrough ?? null;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    const through = indexedThrough ? ` (indexed through ${indexedThrough})` : '';
    const noun = args.accounts ? 'account(s)' : 'entry(ies)';
    ctx.out(`${count} ${noun} found${through}`);
    return 0;
  },
};
