import { QUEUE_NAMES } from '../../functions/contract/names';
import { parseCommandArgs, secondsOption, stringOption } from '../args';
import type { Command } from '../command';
import { apiUrl, type Env, sqsEndpoint } from '../config';
import * as signing from '../signing';
import { queueUrl, sqsClient } from '../sqs';
import { runWorker, WORKER_STEPS } from '../worker';

const NAME = 'worker';

export interface WorkerArgs {
  readonly help: false;
  readonly once: boolean;
  /** Only jobs for this application; undefined takes every job. */
  readonly app: string | undefined;
  readonly signing: signing.Args;
  readonly url: string;
  readonly sqs: string;
  readonly idleMs: number;
  readonly stepDelayMs: number;
}

const OPTIONS = {
  once: { type: 'boolean' },
  app: { type: 'string' },
  url: { type: 'string' },
  sqs: { type: 'string' },
  idle: { type: 'string' },
  delay: { type: 'string' },
  ...signing.OPTIONS,
} as const;

export function parseWorkerArgs(argv: readonly string[], env: Env): WorkerArgs | { help: true } {
  const { values, help } = parseCommandArgs(NAME, argv, OPTIONS);
  if (help) return { help: true };
  return {
    help: false,
    once: values.once === true,
    app: stringOption(values, 'app'),
    signing: signing.parse(values, NAME),
    url: apiUrl(stringOption(values, 'url'), env, NAME),
    sqs: sqsEndpoint(stringOption(values, 'sqs'), env, NAME),
    idleMs: secondsOption(values, 'idle', NAME) ?? 3_000,
    stepDelayMs: secondsOption(values, 'delay', NAME, 60) ?? 300,
  };
}

const steps = WORKER_STEPS.map((s, i) => `${s.status} ${s.progress} (sequence ${i + 1})`).join(
  ', ',
);

export const workerCommand: Command = {
  name: NAME,
  summary: `the demo export worker: consume ${QUEUE_NAMES.exportJobs} and report with signed callbacks`,
  help: `Usage: npm run cli -- worker [--once] [options]

The demo export worker. It consumes ${QUEUE_NAMES.exportJobs} (contract §8) and, for each job, reports
through signed callbacks to the job's callbackPath: ${steps},
each a CloudEvent with a new id, then deletes the message. A job whose executionId it has already
finished is deleted without reporting (delivery is at least once). A job it could not report
(API down, 401 invalid_signature, ...) stays on the queue and comes back after 30 s.

Options:
  --once               stop once no job has come for --idle seconds (default: run until Ctrl-C)
  --idle <seconds>     idle time before --once stops (default 3)
  --delay <seconds>    pause between two callbacks of a job (default 0.3)
  --app <id>           only take jobs addressed to this application (default: any; each job is
                       signed for the application in its callbackPath)
${signing.HELP}
  --url <url>          HTTP API (default: http://127.0.0.1:$PORT, PORT defaults to 3000)
  --sqs <url>          SQS endpoint (default: SQS_ENDPOINT, else http://127.0.0.1:$SQS_PORT,
                       SQS_PORT defaults to 4566)
  -h, --help           this help

Exits 1 when --once ends with a job it could not report.`,
  async run(argv, ctx) {
    const args = parseWorkerArgs(argv, ctx.env);
    if (args.help) {
      ctx.out(workerCommand.help);
      return 0;
    }
    if (args.app !== undefined) signing.signerFor(args.app, args.signing, ctx.env); // fail early
    const client = sqsClient(args.sqs);
    try {
      const url = await queueUrl(client, args.sqs, QUEUE_NAMES.exportJobs, ctx.signal);
      ctx.out(
        `worker: consuming ${QUEUE_NAMES.exportJobs}, reporting to ${args.url}` +
          (args.once ? ` (stops after ${args.idleMs / 1000} s without a job)` : '; Ctrl-C to stop'),
      );
      const summary = await runWorker({
        sqs: client,
        queueUrl: url,
        apiUrl: args.url,
        fetch: ctx.fetch,
        signerFor: (app) => signing.signerFor(app, args.signing, ctx.env),
        ...(args.app === undefined ? {} : { app: args.app }),
        once: args.once,
        idleMs: args.idleMs,
        stepDelayMs: args.stepDelayMs,
        signal: ctx.signal,
        log: (line) => ctx.out(`worker: ${line}`),
      });
      ctx.out(
        `worker: ${summary.done} job(s) done, ${summary.duplicates} duplicate(s), ` +
          `${summary.skipped} skipped, ${summary.failed} failed`,
      );
      return args.once && summary.failed > 0 ? 1 : 0;
    } finally {
      client.destroy();
    }
  },
};
