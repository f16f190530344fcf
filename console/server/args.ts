import { intOption, parseCommandArgs, stringOption } from '../../cli/args';
import type { Env } from '../../cli/config';
import { sqsEndpoint } from '../../cli/config';
import { UsageError } from '../../cli/errors';
import {
  OPERATOR_TABLE_OPTIONS,
  type OperatorTable,
  operatorTable,
  operatorTableHelp,
} from '../../cli/operator-dynamo';
import {
  DEFAULT_GAP_REFETCH_AFTER_SECONDS,
  LOCAL_GAP_REFETCH_AFTER_SECONDS,
  MAX_GAP_REFETCH_AFTER_SECONDS,
} from '../../functions/contract/gaps';
import { STAGE_PATTERN } from '../../functions/contract/names';
import { DEFAULT_CONSOLE_PORT } from '../shared/api';
import { isLoopbackHost } from './http/loopback';

const NAME = 'console';

const OPTIONS = {
  ...OPERATOR_TABLE_OPTIONS,
  stage: { type: 'string' },
  sqs: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'gap-refetch-after': { type: 'string' },
} as const;

export interface ConsoleArgs extends OperatorTable {
  readonly help: false;
  /** Prefix of the stage's queue names (`<stage>-ledger-events-dlq`); empty locally. */
  readonly queuePrefix: string;
  /** The local SQS endpoint; empty with --aws. */
  readonly sqs: string;
  readonly host: string;
  readonly port: number;
  readonly gapRefetchAfterSeconds: number;
}

export const CONSOLE_HELP = `Usage: npm run console -- [--aws --table <name> --stage <stage>] [--port <n>]

Serves the operator console (docs/console.md) on loopback: accounts, journal and balance chart,
dead-letter queues with redrive, overdue gaps with waive, reconciliation findings. It reads the
table and the queues directly with the operator's credentials, never as a tenant. Actions ask
for a confirmation and print one line each (action, target, OS user, outcome).

Options:
${operatorTableHelp(24)}
  --stage <stage>         with --aws: the stage whose queues to show (<stage>-ledger-events-dlq, …)
  --sqs <url>             local SQS (default SQS_ENDPOINT, else http://127.0.0.1:$SQS_PORT)
  --port <n>              where to listen (default ${DEFAULT_CONSOLE_PORT}; 0 picks a free port)
  --host <address>        a loopback address (default 127.0.0.1); any other is refused
  --gap-refetch-after <s> the stage's gapRefetchAfterSeconds (default ${DEFAULT_GAP_REFETCH_AFTER_SECONDS} with --aws, ${LOCAL_GAP_REFETCH_AFTER_SECONDS} locally)
  -h, --help              this help`;

export function parseConsoleArgs(argv: readonly string[], env: Env): ConsoleArgs | { help: true } {
  const { values, help } = parseCommandArgs(NAME, argv, OPTIONS);
  if (help) return { help: true };
  const table = operatorTable(values, env, NAME);
  const stage = stringOption(values, 'stage');
  if (table.aws && (stage === undefined || !STAGE_PATTERN.test(stage))) {
    throw new UsageError('--stage <stage> is required with --aws (it names the queues)', NAME);
  }
  const host = stringOption(values, 'host') ?? '127.0.0.1';
  if (!isLoopbackHost(host)) {
    throw new UsageError(`--host must be a loopback address (127.0.0.1, ::1), not "${host}"`, NAME);
  }
  return {
    help: false,
    ...table,
    queuePrefix: table.aws ? `${stage}-` : '',
    sqs: table.aws ? '' : sqsEndpoint(stringOption(values, 'sqs'), env, NAME),
    host,
    port: intOption(values, 'port', NAME, { min: 0, max: 65_535 }) ?? DEFAULT_CONSOLE_PORT,
    gapRefetchAfterSeconds:
      intOption(values, 'gap-refetch-after', NAME, {
        min: 1,
        max: MAX_GAP_REFETCH_AFTER_SECONDS,
      }) ?? (table.aws ? DEFAULT_GAP_REFETCH_AFTER_SECONDS : LOCAL_GAP_REFETCH_AFTER_SECONDS),
  };
}
