import { randomUUID } from 'node:crypto';
import type { LedgerClient, Schemas } from '../../client';
import { QUEUE_NAMES } from '../../functions/contract/names';
import { sleep } from '../../functions/core/retry';
import { intOption, oneOf, parseCommandArgs, secondsOption, stringOption } from '../args';
import { reach } from '../callbacks';
import { expectStatus, ledgerClient } from '../client';
import type { Command } from '../command';
import { apiUrl, type Env, sqsEndpoint } from '../config';
import { CliError } from '../errors';
import * as signing from '../signing';
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
  readonly signing: signing.Args;
  readonly timeoutMs: number;
}

const OPTIONS = {
  url: { type: 'string' },
  sqs: { type: 'string' },
  principal: { type: 'string' },
  amount: { type: 'string' },
  format: { type: 'string' },
  timeout: { type: 'string' },
  ...signing.OPTIONS,
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
    signing: signing.parse(values, NAME),
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
${signing.HELP}
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
    const api = ledgerClient(args.url, ctx.fetch, args.principal);
    const call = <T>(promise: Promise<T>) => reach(args.url, promise, ctx.signal);
    const run = randomUUID().slice(0, 8);
    const key = (what: string) => ({ 'Idempotency-Key': `demo-${what}-${run}` });
    const step = (n: number, line: string) => ctx.out(`${n}. ${line}`);

    const account = expectStatus(
      await call(
        api.POST('/v1/accounts', {
          params: { header: key('account') },
          body: { currency: 'EUR', name: 'Demo' },
        }),
      ),
      201,
      'POST /v1/accounts',
    );
    const accountId = account.id;
    const path = { accountId };
    step(1, `account ${accountId} created for principal "${args.principal}"`);

    expectStatus(
      await call(
        api.POST('/v1/accounts/{accountId}/transactions', {
          params: { path, header: key('credit') },
          body: { type: 'credit', amount: args.amount, currency: 'EUR', reference: 'cli demo' },
        }),
      ),
      201,
      'POST /v1/accounts/{id}/transactions',
    );
    step(2, `credited ${args.amount} EUR (minor units)`);
    const moved = await demoTransfer(
      api,
      call,
      accountId,
      Math.max(1, Math.floor(args.amount / 5)),
      run,
    );
    for (const line of moved.lines) ctx.out(line);

    const task = expectStatus(
      await call(
        api.POST('/v1/accounts/{accountId}/exports', {
          params: { path, header: key('export') },
          body: { format: args.format },
        }),
      ),
      202,
      'POST /v1/accounts/{id}/exports',
    );
    const taskId = task.id;
    const after = expectStatus(
      await call(api.GET('/v1/accounts/{accountId}', { params: { path } })),
      200,
      'GET /v1/accounts/{id}',
    );
    step(
      3,
      `export task ${taskId} (${task.status}), execution ${task.currentExecutionId}; ` +
        `balance ${moved.balanceAfter} -> ${after.balance} (export fee ${moved.balanceAfter - after.balance})`,
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
  api: LedgerClient,
): Promise<Schemas['Task']> {
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
      signerFor: (app) => signing.signerFor(app, args.signing, ctx.env),
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
    try {
      for (;;) {
        const task = expectStatus(
          await reach(
            args.url,
            api.GET('/v1/tasks/{taskId}', { params: { path: { taskId } } }),
            ctx.signal,
          ),
          200,
          'GET /v1/tasks/{id}',
        );
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
