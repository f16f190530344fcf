import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { iamPrincipal } from '../../functions/api/principal';
import {
  type AccountSnapshot,
  REOWN_LEASE_SECONDS,
  REOWN_STEPS,
  type ReownCheckpoint,
  type ReownEvent,
  type ReownRefusal,
} from '../../functions/domain/reown/model';
import { ReownService } from '../../functions/domain/reown/service';
import { createReownStore } from '../../functions/dynamodb/reown/store';
import { requireString, uuidOption, type Values } from '../args';
import type { CliContext } from '../command';
import type { Env } from '../config';
import { CliError, UsageError } from '../errors';
import { operatorCommand } from '../operator-command';
import { type OperatorTable, operatorTableHelp } from '../operator-dynamo';

const NAME = 'reown';

export interface ReownArgs extends OperatorTable {
  readonly accountId: string;
  readonly to: string;
  readonly withLinked: boolean;
}

function parseReown(values: Values): Omit<ReownArgs, keyof OperatorTable> {
  const accountId = uuidOption(values, 'account', NAME)?.toLowerCase();
  if (accountId === undefined) throw new UsageError('--account is required', NAME);
  const to = requireString(values, 'to', NAME).trim();
  if (to.length > 2048 || /\p{Cc}/u.test(to)) {
    throw new UsageError('--to must be a principal: a JWT sub or an IAM ARN', NAME);
  }
  // The service never sees a session ARN (docs/contract.md §2): owning one would be a 404.
  if (iamPrincipal(to) !== to) {
    throw new UsageError(
      `--to names an assumed-role session; the principal is the role: ${iamPrincipal(to)}`,
      NAME,
    );
  }
  return { accountId, to, withLinked: values['with-linked'] === true };
}

export const reownCommand = operatorCommand({
  name: NAME,
  help: `Usage: npm run cli -- reown --account <id> --to <principal> [--with-linked] [--aws] [--table <name>]

Moves an account and everything under it that names its owner — holds, export tasks, transfers,
ledger transactions — to another principal, then the account itself (docs/operations.md "Re-owning an account").
Afterwards the old principal gets 404 for all of it and the new one has full control. Money
never moves; only ownerId changes. Order: holds, tasks (a scan of the table), transfers, ledger
transactions, the account last; a second pass follows only if the account changed while the first one ran.

Idempotent and resumable: the run keeps a checkpoint in the table (REOWN#<account>) after every
page, so after a Ctrl-C, a crash or an error the same command carries on where it stopped. Run
again after it finished, it moves nothing (or whatever an older one-item re-own left behind).
One run at a time moves an owner's accounts: a run holds a lease (REOWN_LEASE#<old owner>)
and another is refused until it ends; ${REOWN_LEASE_SECONDS} s after a crashed run's last page, a run to the
same target takes it over. Every item moves only while it still belongs to the old owner.

Transfers and ledger transactions link an account to other accounts of the same owner, and each
has one owner: such accounts are listed and nothing is moved, unless --with-linked moves them all
together.

Options:
  --account <id>    the account to move (a UUID)
  --to <principal>  the new owner: a JWT sub, or an IAM ARN (a role, not an assumed-role session)
  --with-linked     also move every account of the same owner that transfers and ledger
                    transactions link it to
${operatorTableHelp()}
  -h, --help        this help`,
  options: {
    account: { type: 'string' },
    to: { type: 'string' },
    'with-linked': { type: 'boolean' },
  },
  parse: parseReown,
  run: runReown,
});

export const parseReownArgs = (argv: readonly string[], env: Env) => reownCommand.parse(argv, env);

/** One run against `dynamo`; the exit code, or a CliError for a refusal. */
export async function runReown(
  args: ReownArgs,
  dynamo: DynamoDBClient,
  ctx: Pick<CliContext, 'out' | 'signal'>,
): Promise<number> {
  const service = new ReownService(createReownStore({ client: dynamo, tableName: args.table }));
  const outcome = await service.run(
    { accountId: args.accountId, to: args.to, withLinked: args.withLinked },
    (event) => report(event, ctx.out),
    ctx.signal,
  );
  if (outcome.kind === 'refused') throw new CliError(refusalText(outcome.refusal, args));
  if (outcome.kind === 'interrupted') {
    ctx.out(`interrupted at ${stepName(outcome.checkpoint)}: run the same command again to resume`);
    return 130;
  }
  return 0;
}

function report(event: ReownEvent, out: (line: string) => void): void {
  const { checkpoint } = event;
  switch (event.kind) {
    case 'planned': {
      out(`re-owning account ${checkpoint.accountId}: "${checkpoint.from}" -> "${checkpoint.to}"`);
      const linked = checkpoint.accounts.slice(1);
      if (linked.length > 0) out(`  with ${linked.length} linked account(s): ${ids(linked)}`);
      return;
    }
    case 'resumed':
      out(
        `resuming the run started ${checkpoint.startedAt} ("${checkpoint.from}" -> "${checkpoint.to}") at ${stepName(checkpoint)}; moved so far: ${movedText(checkpoint)}`,
      );
      return;
    case 'page':
      out(
        `${event.step.phase}${event.step.pass === 2 ? ' (catch-up)' : ''}: ${event.moved} moved, ${event.seen} item(s) read`,
      );
      return;
    case 'accounts_moved':
      out(`accounts: ${ids(checkpoint.accounts)} now belong to "${checkpoint.to}"`);
      if (checkpoint.catchUp) {
        out('an account changed during the run: a second pass catches up what appeared meanwhile');
      }
      return;
    case 'done':
      out(`done: ${movedText(checkpoint)} moved to "${checkpoint.to}"`);
      return;
  }
}

function refusalText(refusal: ReownRefusal, args: ReownArgs): string {
  switch (refusal.kind) {
    case 'unknown_account':
      return `no account ${refusal.accountId} in table ${args.table}`;
    case 'linked_accounts':
      return `transfers or ledger transactions link account ${args.accountId} to ${refusal.accounts.length} other account(s) of the same owner: ${ids(refusal.accounts)}. Each has one owner, so they move together: run again with --with-linked. Nothing was moved.`;
    case 'foreign_links':
      return `transfers or ledger transactions link account ${args.accountId} to account(s) of other principals: ${refusal.accounts.map((a) => `${a.id} (owner "${a.ownerId}")`).join(', ')}. Re-own those to "${args.to}" first. Nothing was moved.`;
    case 'other_run':
      return `an unfinished re-own of account ${args.accountId} moves it to "${refusal.to}"; finish it first (the same command with --to "${refusal.to}")`;
    case 'concurrent_run':
      return `another re-own of account ${args.accountId} wrote its checkpoint meanwhile; let it finish, or run again to resume`;
    case 'lease_held':
      return `another re-own moves the accounts of "${refusal.lease.from}" (to "${refusal.lease.to}", run ${refusal.lease.runId}); it holds their lease until ${refusal.lease.expiresAt}. Nothing was moved by this run: let that one finish; if it crashed, run it again (--to "${refusal.lease.to}") once the lease has expired.`;
    case 'owner_changed':
      return `account ${refusal.account.id} now belongs to "${refusal.account.ownerId}", neither the old nor the new owner; stopped (run again to resume once that is settled)`;
  }
}

const ids = (accounts: readonly AccountSnapshot[]) => accounts.map((a) => a.id).join(', ');

function stepName(checkpoint: ReownCheckpoint): string {
  const step = REOWN_STEPS[checkpoint.step];
  if (!step) return 'the end';
  return `${step.phase}${step.pass === 2 ? ' (catch-up)' : ''}`;
}

function movedText(checkpoint: ReownCheckpoint): string {
  const { holds, tasks, transfers, ledgerTransactions, accounts } = checkpoint.moved;
  return `${holds} hold(s), ${tasks} task(s), ${transfers} transfer(s), ${ledgerTransactions} ledger transaction(s), ${accounts} account(s)`;
}
