import { EXECUTION_STATUSES } from '../../functions/domain/exports/model';
import {
  intOption,
  oneOf,
  parseCommandArgs,
  requireString,
  stringOption,
  uuidOption,
} from '../args';
import { callbackEvent, postCallback, schemeLabel } from '../callbacks';
import { ledgerClient } from '../client';
import type { Command } from '../command';
import { apiUrl, applicationId, type Env } from '../config';
import { UsageError } from '../errors';
import * as signing from '../signing';

const NAME = 'callback';

export interface CallbackArgs {
  readonly help: false;
  readonly executionId: string;
  readonly taskId: string | undefined;
  readonly sequence: number;
  readonly status: string | undefined;
  readonly progress: number | undefined;
  readonly id: string | undefined;
  readonly app: string;
  readonly signing: signing.Args;
  readonly url: string;
}

const OPTIONS = {
  execution: { type: 'string' },
  task: { type: 'string' },
  sequence: { type: 'string' },
  status: { type: 'string' },
  progress: { type: 'string' },
  id: { type: 'string' },
  app: { type: 'string' },
  url: { type: 'string' },
  ...signing.OPTIONS,
} as const;

export function parseCallbackArgs(
  argv: readonly string[],
  env: Env,
): CallbackArgs | { help: true } {
  const { values, help } = parseCommandArgs(NAME, argv, OPTIONS);
  if (help) return { help: true };
  const executionId = uuidOption(values, 'execution', NAME);
  if (executionId === undefined) throw new UsageError('--execution is required', NAME);
  requireString(values, 'sequence', NAME);
  const sequence = intOption(values, 'sequence', NAME, { min: 1, max: Number.MAX_SAFE_INTEGER });
  const app = applicationId(stringOption(values, 'app'), env);
  return {
    help: false,
    executionId,
    taskId: uuidOption(values, 'task', NAME),
    sequence: sequence ?? 1,
    status: oneOf(values, 'status', NAME, EXECUTION_STATUSES),
    progress: intOption(values, 'progress', NAME, { min: 0, max: 100 }),
    id: uuidOption(values, 'id', NAME),
    app,
    signing: signing.parse(values, NAME),
    url: apiUrl(stringOption(values, 'url'), env, NAME),
  };
}

export const callbackCommand: Command = {
  name: NAME,
  help: `Usage: npm run cli -- callback --execution <uuid> --sequence <n> [options]

Sends one signed callback (a CloudEvent, contract §7) about an export execution, the way a
worker does, and prints the HTTP status and the answer ({"outcome": "applied" | "duplicate" |
"stale" | "superseded"} or a problem).

Options:
  --execution <uuid>   the execution (currentExecutionId of GET /v1/tasks/<id>)       required
  --sequence <n>       the event's sequence number, 1 or more                          required
  --task <uuid>        the task id (optional, sent as "taskid")
  --status <S>         ${EXECUTION_STATUSES.join('|')}
  --progress <n>       0..100
  --id <uuid>          the event id (default: a new UUID; send the same id twice to see "duplicate")
  --app <id>           application id, in the path and as "applicationid"
                       (default: CALLBACK_APPLICATION_ID or export-worker)
${signing.HELP}
  --url <url>          HTTP API (default: http://127.0.0.1:$PORT, PORT defaults to 3000)
  -h, --help           this help

Examples:
  npm run cli -- callback --execution 6f1c…-… --sequence 1 --status RUNNING --progress 10
  npm run cli -- callback --execution 6f1c…-… --sequence 2 --scheme standard-webhooks

Exits 1 when the API answers with an error status.`,
  async run(argv, ctx) {
    const args = parseCallbackArgs(argv, ctx.env);
    if (args.help) {
      ctx.out(callbackCommand.help);
      return 0;
    }
    const signer = signing.signerFor(args.app, args.signing, ctx.env);
    const event = callbackEvent({
      applicationId: args.app,
      executionId: args.executionId,
      sequence: args.sequence,
      ...(args.taskId === undefined ? {} : { taskId: args.taskId }),
      ...(args.status === undefined ? {} : { status: args.status }),
      ...(args.progress === undefined ? {} : { progress: args.progress }),
      ...(args.id === undefined ? {} : { id: args.id }),
    });
    ctx.out(
      `POST ${args.url}/v1/callbacks/${encodeURIComponent(args.app)} (${schemeLabel(signer)})`,
    );
    ctx.out(event.body);
    const response = await postCallback({
      client: ledgerClient(args.url, ctx.fetch),
      apiUrl: args.url,
      applicationId: args.app,
      event,
      signer,
      signal: ctx.signal,
    });
    ctx.out(`HTTP ${response.status}`);
    ctx.out(pretty(response.text));
    return response.status >= 400 ? 1 : 0;
  },
};

export function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
