import type { Schemas } from '../../client/index';
import { MAX_STATEMENT_PAGE } from '../../functions/contract/effective-time';
import { intOption, parseCommandArgs, stringOption, type Values } from '../args';
import { reach } from '../callbacks';
import { expectStatus, ledgerClient } from '../client';
import type { Command } from '../command';
import { accountTarget, type Env } from '../config';
import { UsageError } from '../errors';

const NAME = 'statement';

export interface StatementArgs {
  readonly help: false;
  readonly url: string;
  readonly principal: string;
  readonly accountId: string;
  readonly from: string;
  readonly to: string;
  readonly pageSize: number;
}

const OPTIONS = {
  url: { type: 'string' },
  principal: { type: 'string' },
  account: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  'page-size': { type: 'string' },
} as const;

function instantOption(values: Values, name: 'from' | 'to'): string {
  const raw = stringOption(values, name);
  if (raw === undefined) throw new UsageError(`--${name} is required`, NAME);
  // A bare date is that day's start in UTC: --to 2026-12-01 ends November.
  const value = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? `${raw}T00:00:00Z` : raw;
  if (Number.isNaN(Date.parse(value)) || !/[zZ]|[+-]\d{2}:\d{2}$/.test(value)) {
    throw new UsageError(`--${name} must be a date or an ISO 8601 instant with an offset`, NAME);
  }
  return value;
}

export function parseStatementArgs(
  argv: readonly string[],
  env: Env,
): StatementArgs | { help: true } {
  const { values, help } = parseCommandArgs(NAME, argv, OPTIONS);
  if (help) return { help: true };
  return {
    help: false,
    ...accountTarget(values, env, NAME),
    from: instantOption(values, 'from'),
    to: instantOption(values, 'to'),
    pageSize: intOption(values, 'page-size', NAME, { min: 1, max: MAX_STATEMENT_PAGE }) ?? 100,
  };
}

type StatementItem = Schemas['Statement']['items'][number];

/** One line per entry: when it counts, what it did, the signed amount, its id. */
function itemLine(item: StatementItem): string {
  const credit =
    ['credit', 'transfer_in', 'ledger_credit'].includes(item.type) ||
    (item.type === 'reversal' && item.direction === 'credit');
  const amount = `${credit ? '+' : '-'}${item.amount}`.padStart(14);
  return `  ${item.effectiveAt}  ${item.type.padEnd(13)} ${amount}  ${item.id}`;
}

export const statementCommand: Command = {
  name: NAME,
  help: `Usage: npm run cli -- statement --account <id> --from <date|ISO> --to <date|ISO> [options]

Prints the statement of [from, to) by effective time (GET /v1/accounts/<id>/statement): the
opening balance, every entry of the window in effective-time order (all pages), the totals and
the closing balance. A bare date is that day's start in UTC (--from 2026-11-01 --to 2026-12-01
is November).

Options:
  --account <id>       the account (required)
  --from <date|ISO>    window start, inclusive (required)
  --to <date|ISO>      window end, exclusive; at most 366 days after --from (required)
  --principal <id>     X-Principal-Id of the account owner (default demo)
  --page-size <n>      entries per request (default 100, at most ${MAX_STATEMENT_PAGE})
  --url <url>          HTTP API (default: http://127.0.0.1:$PORT, PORT defaults to 3000)
  -h, --help           this help`,
  async run(argv, ctx) {
    const args = parseStatementArgs(argv, ctx.env);
    if (args.help) {
      ctx.out(statementCommand.help);
      return 0;
    }
    const api = ledgerClient(args.url, ctx.fetch, args.principal);
    const what = `GET /v1/accounts/${args.accountId}/statement`;
    let cursor: string | undefined;
    let first = true;
    let last: Schemas['Statement'] | undefined;
    do {
      const query = {
        from: args.from,
        to: args.to,
        limit: args.pageSize,
        ...(cursor === undefined ? {} : { cursor }),
      };
      const page = expectStatus(
        await reach(
          args.url,
          api.GET('/v1/accounts/{accountId}/statement', {
            params: { path: { accountId: args.accountId }, query },
          }),
          ctx.signal,
        ),
        200,
        what,
      );
      if (first) {
        ctx.out(`statement of ${page.accountId} (${page.currency}), ${page.from} to ${page.to}`);
        ctx.out(`  opening balance ${page.openingBalance}`);
        first = false;
      }
      for (const item of page.items) ctx.out(itemLine(item));
      cursor = page.nextCursor ?? undefined;
      last = page;
    } while (cursor !== undefined);
    if (last) {
      ctx.out(`  credits ${last.totalCredits}, debits ${last.totalDebits}`);
      ctx.out(`  closing balance ${last.closingBalance}`);
    }
    return 0;
  },
};
