import { randomUUID } from 'node:crypto';
import type { LedgerClient, Schemas } from '../../../client/index';
import { QUEUE_NAMES } from '../../../functions/contract/names';
import { sleep } from '../../../functions/domain/shared/retry';
import { intOption, oneOf, parseCommandArgs, secondsOption, stringOption } from '../../args';
import { reach, unreachable } from '../../callbacks';
import { expectStatus, ledgerClient } from '../../client';
import type { Command } from '../../command';
import { apiUrl, type Env } from '../../config';
import { CliError } from '../../errors';
import { demoSplitPayment } from './ledger';
import { demoTransfer } from './transfer';

const NAME = 'demo';

export interface DemoArgs {
  readonly help: false;
  readonly url: string;
  readonly principal: string;
  readonly amount: number;
  readonly format: 'csv' | 'json';
  readonly timeoutMs: number;
  /** Lines of the downloaded file to print. */
  readonly lines: number;
}

const OPTIONS = {
  url: { type: 'string' },
  principal: { type: 'string' },
  amount: { type: 'string' },
  format: { type: 'string' },
  timeout: { type: 'string' },
  lines: { type: 'string' },
} as const;

export function parseDemoArgs(argv: readonly string[], env: Env): DemoArgs | { help: true } {
  const { values, help } = parseCommandArgs(NAME, argv, OPTIONS);
  if (help) return { help: true };
  return {
    help: false,
    url: apiUrl(stringOption(values, 'url'), env, NAME),
    principal: stringOption(values, 'principal') ?? 'demo',
    amount: intOption(values, 'amount', NAME, { min: 1, max: 1_000_000_000_000 }) ?? 2_500,
    format: oneOf(values, 'format', NAME, ['csv', 'json'] as const) ?? 'csv',
    timeoutMs: secondsOption(values, 'timeout', NAME) ?? 30_000,
    lines: intOption(values, 'lines', NAME, { min: 1, max: 1000 }) ?? 5,
  };
}

export const demoCommand: Command = {
  name: NAME,
  help: `Usage: npm run cli -- demo [options]

Runs the export loop against a running \`npm start\`, step by step:
  1. creates an EUR account for principal "demo" (POST /v1/accounts)
  2. credits it (POST /v1/accounts/<id>/transactions), then moves a fifth of it to a second
     account (POST /v1/transfers), sends that transfer again with the same key (a replay),
     and shows both balances; then splits a payment of a tenth between a seller, a fee and tax
     in one ledger transaction (POST /v1/ledger-transactions) and refunds it
     (POST /v1/ledger-transactions/<id>/reversals)
  3. requests an export (POST /v1/accounts/<id>/exports): 202 with the task; the fee is
     debited and the outbox dispatcher puts a job on ${QUEUE_NAMES.exportJobs}
  4. waits while the stack's export worker writes the file and reports through signed
     callbacks, until the task is SUCCEEDED (GET /v1/tasks/<id>)
  5. asks for the result (GET /v1/tasks/<id>/result): format, rows, bytes, sha256 and a
     presigned URL valid 15 minutes
  6. downloads the file from that URL (as curl would) and prints its first lines

Options:
  --principal <id>     X-Principal-Id of the account owner (default demo)
  --amount <n>         credit in minor units (default 2500)
  --format csv|json    export format (default csv)
  --lines <n>          lines of the file to print (default 5)
  --timeout <seconds>  give up when the task is not SUCCEEDED by then (default 30)
  --url <url>          HTTP API (default: http://127.0.0.1:$PORT, PORT defaults to 3000)
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
    const split = await demoSplitPayment(
      api,
      call,
      accountId,
      Math.max(1, Math.floor(args.amount / 10)),
      run,
    );
    for (const line of split.lines) ctx.out(line);

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
        `balance ${split.balanceAfter} -> ${after.balance} (export fee ${split.balanceAfter - after.balance})`,
    );

    step(4, `waiting for the export worker on ${QUEUE_NAMES.exportJobs}...`);
    const final = await untilSucceeded(args, ctx, taskId, api);
    ctx.out(`   task ${taskId} is ${final.status} with progress ${final.progress}`);

    const result = expectStatus(
      await call(api.GET('/v1/tasks/{taskId}/result', { params: { path: { taskId } } })),
      200,
      'GET /v1/tasks/{id}/result',
    );
    step(5, `GET /v1/tasks/${taskId}/result:`);
    ctx.out(JSON.stringify(result, null, 2));

    const text = await download(result.url, ctx.fetch);
    const lines = text.split(/\r?\n/).filter((line) => line !== '');
    const shown = Math.min(args.lines, lines.length);
    step(6, `downloaded ${Buffer.byteLength(text)} bytes; the first ${shown} line(s):`);
    for (const line of lines.slice(0, args.lines)) ctx.out(`   ${line}`);
    ctx.out(
      `\ndownload it yourself (valid until ${result.urlExpiresAt}):\n  curl -sS '${result.url}'`,
    );
    return 0;
  },
};

/** Polls the task until its current execution is SUCCEEDED; a terminal failure stops early. */
async function untilSucceeded(
  args: DemoArgs,
  ctx: Parameters<Command['run']>[1],
  taskId: string,
  api: LedgerClient,
): Promise<Schemas['Task']> {
  const deadline = Date.now() + args.timeoutMs;
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
    if (task.status === 'SUCCEEDED') return task;
    if (task.status === 'FAILED' || task.status === 'TIMED_OUT' || task.status === 'CANCELED') {
      throw new CliError(`the export ended ${task.status}; see the [export] lines of npm start`);
    }
    if (ctx.signal.aborted) throw new CliError('interrupted');
    if (Date.now() > deadline) {
      throw new CliError(
        `the task is still ${task.status} (progress ${task.progress}) after ${args.timeoutMs / 1000} s. ` +
          'Is `npm start` running with the export worker (not EXPORT_WORKER=off)? ' +
          `Look at the queue with \`npm run cli -- tail --queue ${QUEUE_NAMES.exportJobs}\`.`,
      );
    }
    await sleep(250, ctx.signal);
  }
}

async function download(url: string, fetchImpl: typeof fetch): Promise<string> {
  let res: Response;
  try {
    res = await fetchImpl(url);
  } catch (error) {
    throw unreachable(new URL(url).origin, error);
  }
  const text = await res.text();
  if (res.status !== 200) {
    throw new CliError(`downloading the result answered ${res.status}: ${text.slice(0, 300)}`);
  }
  return text;
}
