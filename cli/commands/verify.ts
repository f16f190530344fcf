import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Verification } from '../../functions/domain/journal/verify';
import { createJournalVerifier } from '../../functions/dynamodb/journal/verify-store';
import { parseCommandArgs, stringOption } from '../args';
import type { CliContext, Command } from '../command';
import type { Env } from '../config';
import { UsageError } from '../errors';
import {
  OPERATOR_TABLE_OPTIONS,
  type OperatorTable,
  operatorTable,
  operatorTableHelp,
  withOperatorDynamo,
} from '../operator-dynamo';

const NAME = 'verify';

const OPTIONS = {
  account: { type: 'string' },
  all: { type: 'boolean' },
  ...OPERATOR_TABLE_OPTIONS,
} as const;

export interface VerifyArgs extends OperatorTable {
  readonly help: false;
  /** One account's journal, or every journal (`--all`). */
  readonly account: string | 'all';
}

export function parseVerifyArgs(argv: readonly string[], env: Env): VerifyArgs | { help: true } {
  const { values, help } = parseCommandArgs(NAME, argv, OPTIONS);
  if (help) return { help: true };
  const account = stringOption(values, 'account');
  const all = values.all === true;
  if ((account === undefined) === !all) {
    throw new UsageError('give either --account <id> or --all', NAME);
  }
  return { help: false, account: account ?? 'all', ...operatorTable(values, env, NAME) };
}

export const verifyCommand: Command = {
  name: NAME,
  help: `Usage: npm run cli -- verify (--account <id> | --all) [--aws] [--table <name>]

Reads an account's journal (docs/contract.md §27, §31) from record 1 to its head, page by page,
and recomputes every record's hash (SHA-256 over the previous hash and the record in RFC 8785
canonical JSON), the balanceAfter/availableAfter arithmetic and the contiguity of the sequences;
walks the time-keyed copies alongside (exactly one per record, keyed committedAt#sequence, equal
to it; read up to the head it started from, so a live journal verifies clean); checks that the
head stands at the last record with its hash and at the account's version (waiting up to 5 s for
the projector), and that the reconciler's checkpoint still holds its record's hash. Prints
"verified N record(s)", or the first broken sequence of each account that does not hold (exit
code 1). Records written before the chain (no hash) are checked for arithmetic only. Reads only.
--all finds the journals with a Scan of the table.

Options:
  --account <id>    the account whose journal to verify
  --all             every account that has a journal
${operatorTableHelp()}
  -h, --help        this help`,
  async run(argv, ctx) {
    const args = parseVerifyArgs(argv, ctx.env);
    if (args.help) {
      ctx.out(verifyCommand.help);
      return 0;
    }
    return withOperatorDynamo(args, (dynamo) => runVerify(args, dynamo, ctx));
  },
};

/** Verifies the journal(s) `args` name against `dynamo`; the exit code. */
export async function runVerify(
  args: VerifyArgs,
  dynamo: DynamoDBClient,
  ctx: Pick<CliContext, 'out'>,
): Promise<number> {
  const verifier = createJournalVerifier({ client: dynamo, tableName: args.table });
  let records = 0;
  let accounts = 0;
  let broken = 0;
  const onEach = (verification: Verification) => {
    accounts++;
    records += verification.records;
    if (verification.broken) {
      broken++;
      ctx.out(brokenLine(verification));
    }
  };
  if (args.account === 'all') await verifier.verifyAll(onEach);
  else onEach(await verifier.verifyAccount(args.account));
  if (broken > 0) {
    ctx.out(`${broken} of ${accounts} journal(s) broken; ${records} record(s) read`);
    return 1;
  }
  ctx.out(
    `verified ${records} record(s)${args.account === 'all' ? ` in ${accounts} journal(s)` : ''}`,
  );
  return 0;
}

export function brokenLine({ accountId, broken }: Verification): string {
  if (!broken) return '';
  return `BROKEN account ${accountId} at sequence ${broken.sequence} (${broken.problem}): ${broken.detail}`;
}
