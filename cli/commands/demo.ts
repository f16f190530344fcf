import { randomUUID } from 'node:crypto';
import { QUEUE_NAMES } from '../../functions/contract/names';
import { sleep } from '../../functions/core/retry';
import { apiClient, expectStatus } from '../api';
import { intOption, oneOf, parseCommandArgs, secondsOption, stringOption } from '../args';
import type { Command } from '../command';
import { apiUrl, type Env, secretsFor, sqsEndpoint } from '../config';
import { CliError } from '../errors';
import { queueUrl, sqsClient } from '../sqs';
import { demoTransfer } from '../transfer-demo';
import { type JobResult, runWorker } from '../worker';

const NAME = 'demo';

export interface DemoArgs {
  readonly help: false;
  readonly url: string;
  readonly sqs: string;
  readonly principal: string;
  readonly amount: number;
  readonly format: 'csv' | 'json';
  readonly secret: string | undefined;
  readonly timeoutMs: number;
}

const OPTIONS = {
  url: { type: 'string' },
  sqs: { type: 'string' },
  principal: { type: 'string' },
  amount: { type: 'string' },
  format: { type: 'string' },
  secret: { type: 'string' },
  timeout: { type: 'string' },
} as const;

export function parseDemoArgs(argv: readonly string[], env: Env): DemoArgs | { help: true } {
  const { values, help } = parseCommandArgs(NAME, argv, OPTIONS);
  if (help) return { help: true };
  return {
    help: false,
    url: apiUrl(stringOption(values, 'url'), env, NAME),
    sqs: sqsEndpoint(stringOption(values, 'sqs'), env, NAME),
    principal: stringOption(values, 'principal') ?? 'demo',
    amount: intOption(values, 'amount', NAME, { min: 1, max: 1_000_000_000_000 }) ?? 2_500,
    format: oneOf(values, 'format', NAME, ['csv', 'json'] as const) ?? 'csv',
    secret: stringOption(values, 'secret'),
    timeoutMs: secondsOption(values, 'timeout', NAME) ?? 30_000,
  };
}

export const demoCommand: Command = {
  name: NAME,
  summary: 'the whole export loop in one go against a running `npm start`',
  help: `Usage: npm run cli -- demo [options]

Runs the export loop against a running \`npm start\`, step by step:
  1. creates an EUR account for principal "demo" (POST /v1/accounts)
  2. credits it (POST /v1/accounts/<id>/transactions), then moves a fifth of it to a second
     account (POST /v1/transfers), sends that transfer again with the same key (a replay),
     and shows both balances
  3. requests an export (POST /v1/accounts/<id>/exports): 202 with the task; the fee is
     debited and the outbox dispatcher puts a job on ${QUEUE_NAMES.exportJobs}
  4. runs the demo worker (see \`npm run cli -- worker --help\`) until the task is SUCCEEDED
     with progress 100
  5. prints the task (GET /v1/tasks/<id>)

Options:
  --principal <id>     X-Principal-Id of the account owner (default demo)
  --amount <n>         credit in minor units (default 2500)
  --format csv|json    export format (default csv)
  --timeout <seconds>  give up when the task is not SUCCEEDED by then (default 30)
  --secret <secret>    signing secret for the callbacks (default: CALLBACK_SECRETS, else the
                       local stack's demo secret)
  --url <url>          HTTP API (default: http://127.0.0.1:$PORT, PORT defaults to 3000)
  --sqs <url>          SQS endpoint (default: SQS_ENDPOINT, else http://127.0.0.1:$SQS_PORT,
                       SQS_PORT defaults to 4566)
  -h, --help           this help`,
  async run(argv, ctx) {
    const args = parseDemoArgs(argv, ctx.env);
    if (args.help) {
      ctx.out(demoCommand.help);
      return 0;
    }
    const api = apiClient(args.url, args.principal, ctx.fetch);
    const run = randomUUID().slice(0, 8);
    const step = (n: number, line: string) => ctx.out(`${n}. ${line}`);

    const account = expectStatus(
      await api('POST', '/v1/accounts', { currency: 'EUR', name: 'Demo' }, `demo-account-${run}`),
      201,
      'POST /v1/accounts',
    ).json;
    const accountId = String(account.id);
    step(1, `account ${accountId} created for principal "${args.principal}"`);

    expectStatus(
      await api(
        'POST',
        `/v1/accounts/${accountId}/transactions`,
        { type: 'credit', amount: args.amount, currency: 'EUR', reference: 'cli demo' },
        `demo-credit-${run}`,
      ),
      201,
      'POST /v1/accounts/{id}/transactions',
    );
    step(2, `credited ${args.amount} EUR (minor units)`);
    const moved = await demoTransfer(api, accountId, Math.max(1, Math.floor(args.amount / 5)), run);
    for (const line of moved.lines) ctx.out(line);

    const task = expectStatus(
      await api(
        'POST',
        `/v1/accounts/${accountId}/exports`,
        { format: args.format },
        `demo-export-${run}`,
      ),
      202,
      'POST /v1/accounts/{id}/exports',
    ).json;
    const taskId = String(task.id);
    const after = expectStatus(
      await api('GET', `/v1/accounts/${accountId}`),
      200,
      'GET /v1/accounts/{id}',
    ).json;
    step(
      3,
      `export task ${taskId} (${task.status}), execution ${task.currentExecutionId}; ` +
        `balance ${moved.balanceAfter} -> ${after.balance} (export fee ${moved.balanceAfter - Number(after.balance)})`,
    );

    step(4, `running the demo worker on ${QUEUE_NAMES.exportJobs} until the task is SUCCEEDED...`);
    const final = await workUntilDone(args, ctx, taskId, api);

    step(5, `GET /v1/tasks/${taskId}:`);
    ctx.out(JSON.stringify(final, null, 2));
    ctx.out(`done: task ${taskId} is ${final.status} with progress ${final.progress}`);
    return 0;
  },
};

/** Runs the worker in this process and polls the task until it is SUCCEEDED with progress 100. */
async function workUntilDone(
  args: DemoArgs,
  ctx: Parameters<Command['run']>[1],
  taskId: string,
  api: ReturnType<typeof apiClient>,
): Promise<Record<string, unknown>> {
  const client = sqsClient(args.sqs);
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  let failure: string | undefined;
  try {
    const url = await queueUrl(client, args.sqs, QUEUE_NAMES.exportJobs, ctx.signal);
    const worker = runWorker({
      sqs: client,
      queueUrl: url,
      apiUrl: args.url,
      fetch: ctx.fetch,
      secretsFor: (app) => secretsFor(app, args.secret, ctx.env),
      stepDelayMs: 300,
      signal: stop.signal,
      log: (line) => ctx.out(`   worker: ${line}`),
      onResult: (result: JobResult) => {
        if (result.kind === 'failed' && result.job?.taskId === taskId) failure = result.reason;
      },
    }).catch((error: unknown) => {
      failure = error instanceof Error ? error.message : String(error);
    });

    const deadline = Date.now() + args.timeoutMs;
    let task: Record<string, unknown> = {};
    try {
      for (;;) {
        task = expectStatus(
          await api('GET', `/v1/tasks/${taskId}`),
          200,
          'GET /v1/tasks/{id}',
        ).json;
        if (task.status === 'SUCCEEDED' && task.progress === 100) return task;
        if (failure !== undefined) {
          throw new CliError(`the worker could not report on the task: ${failure}`);
        }
        if (ctx.signal.aborted) throw new CliError('interrupted');
        if (Date.now() > deadline) {
          throw new CliError(
            `the task is still ${task.status} (progress ${task.progress}) after ${args.timeoutMs / 1000} s. ` +
              'Is `npm start` running with the outbox dispatcher (its banner has an "Outbox" line)? ' +
              `Look at the queue with \`npm run cli -- tail --queue ${QUEUE_NAMES.exportJobs}\`.`,
          );
        }
        await sleep(250);
      }
    } finally {
      stop.abort();
      await worker;
    }
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    client.destroy();
  }
}
