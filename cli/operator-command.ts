import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { parseCommandArgs, type Values } from './args';
import type { CliContext, Command } from './command';
import type { Env } from './config';
import {
  OPERATOR_TABLE_OPTIONS,
  type OperatorTable,
  operatorTable,
  withOperatorDynamo,
} from './operator-dynamo';

type Options = Parameters<typeof parseCommandArgs>[2];

/** An operator command (`reown`, `reconcile`, `gaps-backfill`): what differs between them. */
export interface OperatorCommandSpec<A> {
  readonly name: string;
  /** The full `--help` text (with `operatorTableHelp()` among its options). */
  readonly help: string;
  /** The command's own options; the table's (OPERATOR_TABLE_OPTIONS) are added. */
  readonly options: Options;
  /** The command's own arguments from the parsed values; throws UsageError. */
  parse(values: Values, env: Env): A;
  /** One run against the table; the exit code. */
  run(args: A & OperatorTable, dynamo: DynamoDBClient, ctx: CliContext): Promise<number>;
}

export type OperatorArgs<A> = A & OperatorTable & { readonly help: false };

export interface OperatorCommand<A> extends Command {
  /** The arguments `run` goes on with, or `{ help: true }` for --help. */
  parse(argv: readonly string[], env: Env): OperatorArgs<A> | { readonly help: true };
}

/**
 * The one runner of the operator commands: parses the command's options and where the table is
 * (--aws, --dynamodb, --table), prints --help, and runs the command with a DynamoDB client that
 * is destroyed afterwards.
 */
export function operatorCommand<A>(spec: OperatorCommandSpec<A>): OperatorCommand<A> {
  const options = { ...spec.options, ...OPERATOR_TABLE_OPTIONS };
  const parse = (argv: readonly string[], env: Env): OperatorArgs<A> | { help: true } => {
    const { values, help } = parseCommandArgs(spec.name, argv, options);
    if (help) return { help: true };
    const own = spec.parse(values, env);
    return { ...own, ...operatorTable(values, env, spec.name), help: false };
  };
  return {
    name: spec.name,
    help: spec.help,
    parse,
    async run(argv, ctx) {
      const args = parse(argv, ctx.env);
      if (args.help) {
        ctx.out(spec.help);
        return 0;
      }
      return withOperatorDynamo(args, (dynamo) => spec.run(args, dynamo, ctx));
    },
  };
}
