import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { resolveSetAside } from '../../../functions/dynamodb/intake/resolve';
import { requireString, uuidOption, type Values } from '../../args';
import type { CliContext, Command } from '../../command';
import { CliError, UsageError } from '../../errors';
import { operatorCommand } from '../../operator-command';
import { type OperatorTable, operatorTableHelp } from '../../operator-dynamo';

const NAME = 'intake';

export interface IntakeResolveArgs extends OperatorTable {
  readonly accountId: string;
  readonly creditId: string;
  readonly effectiveAt: string;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function parseResolve(values: Values): Omit<IntakeResolveArgs, keyof OperatorTable> {
  const accountId = uuidOption(values, 'account', NAME)?.toLowerCase();
  if (accountId === undefined) throw new UsageError('--account is required', NAME);
  const creditId = uuidOption(values, 'credit', NAME)?.toLowerCase();
  if (creditId === undefined) throw new UsageError('--credit is required', NAME);
  const raw = requireString(values, 'effective-at', NAME);
  const parsed = Date.parse(raw);
  if (Number.isNaN(parsed)) throw new UsageError('--effective-at must be an ISO 8601 time', NAME);
  const effectiveAt = new Date(parsed).toISOString();
  if (!ISO_UTC.test(effectiveAt)) throw new UsageError('--effective-at is out of range', NAME);
  return { accountId, creditId, effectiveAt };
}

const resolveCommand = operatorCommand({
  name: NAME,
  help: `Usage: npm run cli -- intake resolve --account <id> --credit <entryId> --effective-at <time> [--aws] [--table <name>]

Moves a credit the folder set aside (docs/contract.md §36; docs/operations.md "Set-aside credits")
back to pending with a new effectiveAt, which must be after the account's closedThrough; the
folder then posts it.

Options:
  --account <id>        the deferred account (a UUID)
  --credit <entryId>    the set-aside credit's entry id (a UUID)
  --effective-at <time> its new effective time (ISO 8601), after closedThrough
${operatorTableHelp()}
  -h, --help            this help`,
  options: {
    account: { type: 'string' },
    credit: { type: 'string' },
    'effective-at': { type: 'string' },
  },
  parse: parseResolve,
  run: runResolve,
});

export async function runResolve(
  args: IntakeResolveArgs,
  dynamo: DynamoDBClient,
  ctx: Pick<CliContext, 'out'>,
): Promise<number> {
  const options = { client: dynamo, tableName: args.table };
  const outcome = await resolveSetAside(options, args.accountId, args.creditId, args.effectiveAt);
  if (outcome.kind === 'not_found') {
    throw new CliError(`no set-aside credit ${args.creditId} on account ${args.accountId}`);
  }
  if (outcome.kind === 'not_after_close') {
    throw new CliError(
      `--effective-at ${args.effectiveAt} lies in the period closed through ${outcome.closedThrough}; choose a later time`,
    );
  }
  ctx.out(`credit ${args.creditId} is pending again, effective ${args.effectiveAt}`);
  return 0;
}

/** `intake resolve …`: the one subcommand. */
export const intakeCommand: Command = {
  name: NAME,
  help: resolveCommand.help,
  async run(argv, ctx) {
    const [sub, ...rest] = argv;
    if (sub === 'resolve') return resolveCommand.run(rest, ctx);
    if (sub === '-h' || sub === '--help') return resolveCommand.run(['--help'], ctx);
    throw new UsageError('the subcommand is resolve: intake resolve --account …', NAME);
  },
};

export const parseIntakeResolveArgs = resolveCommand.parse;
