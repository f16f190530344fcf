import { randomUUID } from 'node:crypto';
import { CREDIT_INTAKE_MODES, type CreditIntake } from '../../functions/domain/accounts/model';
import { MAX_OVERDRAFT_LIMIT } from '../../functions/domain/accounts/money';
import { intOption, oneOf, parseCommandArgs, stringOption } from '../args';
import { reach } from '../callbacks';
import { expectStatus, ledgerClient } from '../client';
import type { Command } from '../command';
import { accountTarget, type Env } from '../config';
import { UsageError } from '../errors';

const NAME = 'settings';

export interface SettingsArgs {
  readonly help: false;
  readonly url: string;
  readonly principal: string;
  readonly accountId: string;
  readonly key: string;
  readonly body: { creditIntake?: CreditIntake; overdraftLimit?: number };
}

const OPTIONS = {
  url: { type: 'string' },
  principal: { type: 'string' },
  account: { type: 'string' },
  'credit-intake': { type: 'string' },
  'overdraft-limit': { type: 'string' },
  key: { type: 'string' },
} as const;

export function parseSettingsArgs(
  argv: readonly string[],
  env: Env,
): SettingsArgs | { help: true } {
  const { values, help } = parseCommandArgs(NAME, argv, OPTIONS);
  if (help) return { help: true };
  const creditIntake = oneOf(values, 'credit-intake', NAME, CREDIT_INTAKE_MODES);
  const overdraftLimit = intOption(values, 'overdraft-limit', NAME, {
    min: 0,
    max: MAX_OVERDRAFT_LIMIT,
  });
  if (creditIntake === undefined && overdraftLimit === undefined) {
    throw new UsageError('give --credit-intake, --overdraft-limit or both', NAME);
  }
  return {
    help: false,
    ...accountTarget(values, env, NAME),
    key: stringOption(values, 'key') ?? randomUUID(),
    body: {
      ...(creditIntake === undefined ? {} : { creditIntake }),
      ...(overdraftLimit === undefined ? {} : { overdraftLimit }),
    },
  };
}

export const settingsCommand: Command = {
  name: NAME,
  help: `Usage: npm run cli -- settings --account <id> [--credit-intake direct|deferred] [--overdraft-limit <n>]

Changes an account's settings (POST /v1/accounts/<id>/settings) and prints the account as it
stands. deferred: credits are accepted as pending credits and posted in batches; direct: they
change the account at once. A lower overdraft limit must still cover what the account draws.

Options:
  --account <id>              the account (required)
  --credit-intake <mode>      direct or deferred
  --overdraft-limit <n>       minor units, 0 to ${MAX_OVERDRAFT_LIMIT}
  --key <text>                Idempotency-Key (default: a new UUID; reuse one to retry safely)
  --principal <id>            X-Principal-Id of the account owner (default demo)
  --url <url>                 HTTP API (default: http://127.0.0.1:$PORT, PORT defaults to 3000)
  -h, --help                  this help`,
  async run(argv, ctx) {
    const args = parseSettingsArgs(argv, ctx.env);
    if (args.help) {
      ctx.out(settingsCommand.help);
      return 0;
    }
    const api = ledgerClient(args.url, ctx.fetch, args.principal);
    const account = expectStatus(
      await reach(
        args.url,
        api.POST('/v1/accounts/{accountId}/settings', {
          params: { path: { accountId: args.accountId }, header: { 'Idempotency-Key': args.key } },
          body: args.body,
        }),
        ctx.signal,
      ),
      200,
      `POST /v1/accounts/${args.accountId}/settings`,
    );
    ctx.out(
      `account ${account.id}: creditIntake ${account.creditIntake}, overdraftLimit ` +
        `${account.overdraftLimit}, balance ${account.balance}, available ${account.available}`,
    );
    return 0;
  },
};
