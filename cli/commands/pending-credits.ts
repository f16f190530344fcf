import type { Schemas } from '../../client/index';
import { intOption, parseCommandArgs } from '../args';
import { reach } from '../callbacks';
import { expectStatus, ledgerClient } from '../client';
import type { Command } from '../command';
import { accountTarget, type Env } from '../config';

const NAME = 'pending-credits';
/** The route's page limit (functions/schemas/accounts.ts, ListTransactionsQuery). */
const MAX_PAGE = 100;

export interface PendingCreditsArgs {
  readonly help: false;
  readonly url: string;
  readonly principal: string;
  readonly accountId: string;
  readonly pageSize: number;
}

const OPTIONS = {
  url: { type: 'string' },
  principal: { type: 'string' },
  account: { type: 'string' },
  'page-size': { type: 'string' },
} as const;

export function parsePendingCreditsArgs(
  argv: readonly string[],
  env: Env,
): PendingCreditsArgs | { help: true } {
  const { values, help } = parseCommandArgs(NAME, argv, OPTIONS);
  if (help) return { help: true };
  return {
    help: false,
    ...accountTarget(values, env, NAME),
    pageSize: intOption(values, 'page-size', NAME, { min: 1, max: MAX_PAGE }) ?? MAX_PAGE,
  };
}

type PendingItem = Schemas['PendingCreditPage']['items'][number];

/** One line per pending credit: when it was accepted, its kind, amount and entry id. */
const itemLine = (item: PendingItem): string =>
  `  ${item.acceptedAt}  ${item.kind.padEnd(13)} ${`+${item.amount}`.padStart(14)}  ${item.entryId}`;

export const pendingCreditsCommand: Command = {
  name: NAME,
  help: `Usage: npm run cli -- pending-credits --account <id> [options]

Prints the credits accepted into a deferred account and not posted yet
(GET /v1/accounts/<id>/pending-credits), oldest first, every page, each credit
once (a run may list one twice), then how many.

Options:
  --account <id>       the account (required)
  --principal <id>     X-Principal-Id of the account owner (default demo)
  --page-size <n>      credits per request (default ${MAX_PAGE}, at most ${MAX_PAGE})
  --url <url>          HTTP API (default: http://127.0.0.1:$PORT, PORT defaults to 3000)
  -h, --help           this help`,
  async run(argv, ctx) {
    const args = parsePendingCreditsArgs(argv, ctx.env);
    if (args.help) {
      ctx.out(pendingCreditsCommand.help);
      return 0;
    }
    const api = ledgerClient(args.url, ctx.fetch, args.principal);
    const what = `GET /v1/accounts/${args.accountId}/pending-credits`;
    let cursor: string | undefined;
    // A run may list a credit twice (docs/contract.md §24): each entry id is printed once.
    const printed = new Set<string>();
    do {
      const query = { limit: args.pageSize, ...(cursor === undefined ? {} : { cursor }) };
      const page = expectStatus(
        await reach(
          args.url,
          api.GET('/v1/accounts/{accountId}/pending-credits', {
            params: { path: { accountId: args.accountId }, query },
          }),
          ctx.signal,
        ),
        200,
        what,
      );
      for (const item of page.items) {
        if (printed.has(item.entryId)) continue;
        printed.add(item.entryId);
        ctx.out(itemLine(item));
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    ctx.out(`${printed.size} pending credit(s) on ${args.accountId}`);
    return 0;
  },
};
