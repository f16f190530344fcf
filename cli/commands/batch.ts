import { readFile } from 'node:fs/promises';
import type { LedgerClient, Schemas } from '../../client/index';
import { MAX_BATCH_OPERATIONS } from '../../functions/contract/batches';
import {
  canonicalJson,
  type Json,
  sha256Hex,
} from '../../functions/domain/idempotency/fingerprint';
import { oneOf, parseCommandArgs, requireString, stringOption } from '../args';
import { reach } from '../callbacks';
import { expectStatus, ledgerClient } from '../client';
import type { Command } from '../command';
import { apiUrl, type Env } from '../config';
import { CliError } from '../errors';

const NAME = 'batch';

type Operation = Schemas['CreateBatch']['operations'][number];
type Mode = Schemas['CreateBatch']['mode'];

export interface BatchArgs {
  readonly help: false;
  readonly file: string;
  readonly mode: Mode;
  readonly url: string;
  readonly principal: string;
  /** Prefix of each batch's Idempotency-Key; the rest is the hash of what the batch sends. */
  readonly keyPrefix: string;
}

const OPTIONS = {
  file: { type: 'string' },
  mode: { type: 'string' },
  url: { type: 'string' },
  principal: { type: 'string' },
  'key-prefix': { type: 'string' },
} as const;

export function parseBatchArgs(argv: readonly string[], env: Env): BatchArgs | { help: true } {
  const { values, help } = parseCommandArgs(NAME, argv, OPTIONS);
  if (help) return { help: true };
  return {
    help: false,
    file: requireString(values, 'file', NAME),
    mode: oneOf(values, 'mode', NAME, ['independent', 'atomic'] as const) ?? 'independent',
    url: apiUrl(stringOption(values, 'url'), env, NAME),
    principal: stringOption(values, 'principal') ?? 'demo',
    keyPrefix: stringOption(values, 'key-prefix') ?? 'cli-batch',
  };
}

/**
 * The operations of a file: a JSON array of operations, an object `{ operations }`, or JSON
 * Lines (one operation a line). Each operation is sent as it is; the API checks it.
 */
export function operationsOf(text: string, file: string): Operation[] {
  const trimmed = text.trim();
  try {
    if (trimmed.startsWith('[')) return JSON.parse(trimmed) as Operation[];
    if (trimmed.startsWith('{') && !trimmed.includes('\n{')) {
      const parsed = JSON.parse(trimmed) as { operations?: Operation[] };
      if (Array.isArray(parsed.operations)) return parsed.operations;
    }
    return trimmed
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Operation);
  } catch (error) {
    throw new CliError(
      `${file} is neither a JSON array of operations nor JSON Lines: ${String(error)}`,
    );
  }
}

/** Cuts the operations into batches the API takes (at most MAX_BATCH_OPERATIONS each), in order. */
export function batchesOf(operations: readonly Operation[]): Operation[][] {
  const batches: Operation[][] = [];
  for (let i = 0; i < operations.length; i += MAX_BATCH_OPERATIONS) {
    batches.push(operations.slice(i, i + MAX_BATCH_OPERATIONS));
  }
  return batches;
}

/** The same operations in the same mode get the same key: running the file again replays. */
export const batchKey = (prefix: string, mode: Mode, operations: readonly Operation[]): string =>
  `${prefix}-${sha256Hex(canonicalJson({ mode, operations } as unknown as Json)).slice(0, 32)}`;

export const batchCommand: Command = {
  name: NAME,
  help: `Usage: npm run cli -- batch --file <ops.json> [options]

Sends the operations of a file (docs/contract.md §25) to a running \`npm start\` (or --url) in
batches of ${MAX_BATCH_OPERATIONS}, in file order. Each operation is { key, op, accountId?, body }:
op credit|debit (with accountId), transfer or ledger_transaction, body as the single route's,
key its own Idempotency-Key. The file is a JSON array, { "operations": [...] } or JSON Lines.

Each batch's Idempotency-Key is --key-prefix plus a hash of what it sends, so running the same
file again replays every batch (and every operation keeps its own key). Progress goes to
stderr; every operation's result goes to stdout as one JSON line { key, status, body,
replayed? }, in file order. An atomic batch is all or nothing within its ${MAX_BATCH_OPERATIONS}
operations only; a refused one prints { batch, status, body } instead of its results.
Exits 0 when every operation answered 2xx, 1 otherwise (results of 503 or
409 idempotency_key_in_use may be sent again as they are).

Options:
  --file <path>               the operations                                     required
  --mode independent|atomic   (default independent)
  --principal <id>            X-Principal-Id of the local stack (default demo)
  --key-prefix <text>         prefix of each batch's Idempotency-Key (default cli-batch)
  --url <url>                 the API (default: API_URL, else http://127.0.0.1:$PORT, PORT 3000)
  -h, --help                  this help

Example:
  npm run cli -- batch --file payouts.json --principal treasury > results.jsonl`,
  async run(argv, ctx) {
    const args = parseBatchArgs(argv, ctx.env);
    if (args.help) {
      ctx.out(batchCommand.help);
      return 0;
    }
    const text = await readFile(args.file, 'utf8').catch((error: unknown) => {
      throw new CliError(`cannot read ${args.file}: ${String(error)}`);
    });
    const batches = batchesOf(operationsOf(text, args.file));
    const api = ledgerClient(args.url, ctx.fetch, args.principal);
    let failed = 0;
    for (const [index, operations] of batches.entries()) {
      failed += await sendBatch(api, args, ctx, { index, total: batches.length, operations });
    }
    ctx.err(`${NAME}: ${batches.length} batch(es) sent; ${failed} operation(s) not applied`);
    return failed === 0 ? 0 : 1;
  },
};

/** One batch: its results on stdout, a progress line on stderr; how many operations failed. */
async function sendBatch(
  api: LedgerClient,
  args: BatchArgs,
  ctx: Parameters<Command['run']>[1],
  batch: { index: number; total: number; operations: Operation[] },
): Promise<number> {
  const { index, total, operations } = batch;
  const key = batchKey(args.keyPrefix, args.mode, operations);
  const answer = await reach(
    args.url,
    api.POST('/v1/batches', {
      params: { header: { 'Idempotency-Key': key } },
      body: { mode: args.mode, operations },
    }),
    ctx.signal,
  );
  const label = `batch ${index + 1}/${total} (${operations.length} operations)`;
  if (answer.response.status !== 200 && answer.error !== undefined) {
    if (answer.response.status >= 500 || answer.response.status === 400) {
      expectStatus(answer, 200, `POST /v1/batches ${label}`);
    }
    ctx.out(JSON.stringify({ batch: index, status: answer.response.status, body: answer.error }));
    ctx.err(`${label}: ${answer.response.status}, nothing applied`);
    return operations.length;
  }
  const { results } = expectStatus(answer, 200, `POST /v1/batches ${label}`);
  const counts = new Map<number, number>();
  for (const result of results) {
    ctx.out(JSON.stringify(result));
    counts.set(result.status, (counts.get(result.status) ?? 0) + 1);
  }
  const summary = [...counts].map(([status, n]) => `${n} × ${status}`).join(', ');
  const replayed =
    answer.response.headers.get('idempotent-replayed') === 'true' ? ' (replayed)' : '';
  ctx.err(`${label}: ${summary}${replayed}`);
  return results.filter((result) => result.status >= 300).length;
}
