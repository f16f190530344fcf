import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { JOURNAL_TAP_QUEUE_NAME } from '../../../functions/contract/journal';
import { QUEUE_NAMES } from '../../../functions/contract/names';
import { describeError } from '../../../functions/domain/shared/log';
import { sleep } from '../../../functions/domain/shared/retry';
import { intOption, oneOf, parseCommandArgs } from '../../args';
import type { CliContext, Command } from '../../command';
import { type Env, sqsEndpoint } from '../../config';
import { UsageError } from '../../errors';
import { queueUrl, sqsClient } from '../../sqs';
import { TAIL_QUEUES, type TailQueue } from '../../tail-queues';
import { journalLine, readable, toJson } from './format';

const NAME = 'tail';

export interface TailArgs {
  readonly help: false;
  readonly queue: TailQueue;
  readonly follow: boolean;
  readonly delete: boolean;
  readonly json: boolean;
  /** Seconds to wait for a first message when the queue is empty (`--wait`); 0: one 1 s poll. */
  readonly waitSeconds: number;
  readonly sqs: string;
}

const OPTIONS = {
  queue: { type: 'string', short: 'q' },
  journal: { type: 'boolean', short: 'j' },
  follow: { type: 'boolean', short: 'f' },
  delete: { type: 'boolean' },
  json: { type: 'boolean' },
  wait: { type: 'string', short: 'w' },
  sqs: { type: 'string' },
} as const;

/** `--wait` at most: long enough for anything the local stack sends on a schedule. */
export const MAX_TAIL_WAIT_SECONDS = 300;
/**
 * One long poll of `--wait` at most (SQS allows 20 s): a poll left open by a Ctrl-C can still
 * take a message on the server for nobody, hidden for HOLD_SECONDS; shorter polls keep that
 * window short.
 */
const MAX_LONG_POLL_SECONDS = 5;

/** How long tail hides what it has received while it reads the rest of the queue. */
const HOLD_SECONDS = 30;
/** Pause between two reads of the queue with --follow. */
const FOLLOW_INTERVAL_MS = 1_000;

export function parseTailArgs(argv: readonly string[], env: Env): TailArgs | { help: true } {
  const { values, help } = parseCommandArgs(NAME, argv, OPTIONS);
  if (help) return { help: true };
  if (values.queue === QUEUE_NAMES.ledgerEvents) {
    throw new UsageError(
      `tail does not read ${QUEUE_NAMES.ledgerEvents}: every receive counts towards its redrive to the ` +
        `DLQ (maxReceiveCount 5), and the stack's poller consumes it within a second anyway`,
      NAME,
    );
  }
  if (values.journal === true && values.queue !== undefined) {
    throw new UsageError(`--journal reads ${JOURNAL_TAP_QUEUE_NAME}; leave out --queue`, NAME);
  }
  const queue =
    values.journal === true ? JOURNAL_TAP_QUEUE_NAME : oneOf(values, 'queue', NAME, TAIL_QUEUES);
  if (queue === undefined) {
    throw new UsageError(`--queue is required: ${TAIL_QUEUES.join(' or ')} (or --journal)`, NAME);
  }
  const waitSeconds = intOption(values, 'wait', NAME, { min: 0, max: MAX_TAIL_WAIT_SECONDS }) ?? 0;
  if (waitSeconds > 0 && values.follow === true) {
    throw new UsageError('--wait is for one read; --follow keeps waiting by itself', NAME);
  }
  return {
    help: false,
    queue,
    waitSeconds,
    follow: values.follow === true,
    delete: values.delete === true,
    json: values.json === true,
    sqs: sqsEndpoint(typeof values.sqs === 'string' ? values.sqs : undefined, env, NAME),
  };
}

export const tailCommand: Command = {
  name: NAME,
  help: `Usage: npm run cli -- tail --queue ${TAIL_QUEUES.join('|')} [--follow | --wait <s>] [--delete] [--json]
       npm run cli -- tail --journal [--follow | --wait <s>] [--delete] [--json]

Receives every message on the queue and prints it: id, how often it was received, when it was
sent, its message attributes (on ${QUEUE_NAMES.ledgerEventsDeadLetter}: error_code, error_detail,
source_message_id) and its body. By default the messages are left on the queue: tail hides
them while it reads (up to ${HOLD_SECONDS} s) and then makes them visible again at once, so a
worker or a second tail sees them as before (their receive count does go up).

--journal prints the ledger.journal.v1 events (docs/contract.md §15) the journal projector
published to the topic ledger-journal, from its tap queue ${JOURNAL_TAP_QUEUE_NAME} (raw delivery):
one line per record, sequence, kind, deltas and after-values; --json prints each event whole.

Options:
  -q, --queue <name>   ${TAIL_QUEUES.join(', ')}   required, unless --journal
  -j, --journal        the journal events: --queue ${JOURNAL_TAP_QUEUE_NAME}
  -f, --follow         keep reading (about once a second) and print new messages until Ctrl-C
  -w, --wait <s>       on an empty queue, wait up to <s> seconds (0–${MAX_TAIL_WAIT_SECONDS}) for a first
                       message, then print what is there (default: one 1 s long poll)
  --delete             consume: delete each message after printing it
  --json               one JSON object per message instead of the readable form
  --sqs <url>          SQS endpoint (default: SQS_ENDPOINT, else http://127.0.0.1:$SQS_PORT,
                       SQS_PORT defaults to 4566)
  -h, --help           this help

${QUEUE_NAMES.ledgerEvents} is not offered: each receive counts towards its redrive policy.`,
  async run(argv, ctx) {
    const args = parseTailArgs(argv, ctx.env);
    if (args.help) {
      ctx.out(tailCommand.help);
      return 0;
    }
    const client = sqsClient(args.sqs);
    try {
      const url = await queueUrl(client, args.sqs, args.queue, ctx.signal);
      return await tail(client, url, args, ctx);
    } finally {
      client.destroy();
    }
  },
};

async function tail(client: SQSClient, url: string, args: TailArgs, ctx: CliContext) {
  const printed = new Set<string>();
  let total = 0;
  if (!args.json)
    ctx.out(`${args.queue} (${url})${args.follow ? ', following; Ctrl-C to stop' : ''}`);
  do {
    const held: Message[] = [];
    try {
      const waitUntil = Date.now() + args.waitSeconds * 1000;
      for (;;) {
        // Long-poll only for the first batch, so the messages are held for as short as possible.
        const batch =
          held.length === 0
            ? await firstBatch(client, url, waitUntil, ctx.signal)
            : await receive(client, url, 0, ctx.signal);
        if (batch.length === 0) break;
        held.push(...batch);
        for (const message of batch) {
          // With --follow, a message that is still there is printed only the first time.
          if (message.MessageId && printed.has(message.MessageId)) continue;
          if (message.MessageId) printed.add(message.MessageId);
          total++;
          ctx.out(
            args.json
              ? JSON.stringify(toJson(args.queue, message))
              : args.queue === JOURNAL_TAP_QUEUE_NAME
                ? journalLine(message)
                : readable(message),
          );
        }
      }
    } catch (error) {
      if (!ctx.signal.aborted) throw new Error(`ReceiveMessage failed: ${describeError(error)}`);
    } finally {
      // Not tied to the signal: Ctrl-C must still hand the messages back.
      await (args.delete ? remove(client, url, held) : release(client, url, held));
    }
    if (args.follow) await sleep(FOLLOW_INTERVAL_MS, ctx.signal);
  } while (args.follow && !ctx.signal.aborted);
  if (!args.json) {
    const verb = args.delete ? 'deleted' : 'left on the queue';
    ctx.out(total === 0 ? `no messages on ${args.queue}` : `${total} message(s), ${verb}`);
  }
  return 0;
}

/** The first messages: long polls (at least one of 1 s) until some arrive or `until` passes. */
async function firstBatch(
  client: SQSClient,
  url: string,
  until: number,
  signal: AbortSignal,
): Promise<Message[]> {
  for (;;) {
    const left = Math.ceil((until - Date.now()) / 1000);
    const wait = Math.min(MAX_LONG_POLL_SECONDS, Math.max(1, left));
    const batch = await receive(client, url, wait, signal);
    if (batch.length > 0 || left <= wait || signal.aborted) return batch;
  }
}

async function receive(
  client: SQSClient,
  url: string,
  waitTimeSeconds: number,
  signal: AbortSignal,
): Promise<Message[]> {
  const { Messages = [] } = await client.send(
    new ReceiveMessageCommand({
      QueueUrl: url,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: waitTimeSeconds,
      VisibilityTimeout: HOLD_SECONDS,
      MessageAttributeNames: ['All'],
      MessageSystemAttributeNames: ['All'],
    }),
    { abortSignal: signal },
  );
  return Messages;
}

async function release(client: SQSClient, url: string, messages: Message[]): Promise<void> {
  for (const chunk of chunks(messages)) {
    await client.send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: url,
        Entries: chunk.map((m, i) => ({
          Id: `m${i}`,
          ReceiptHandle: m.ReceiptHandle,
          VisibilityTimeout: 0,
        })),
      }),
    );
  }
}

async function remove(client: SQSClient, url: string, messages: Message[]): Promise<void> {
  for (const chunk of chunks(messages)) {
    await client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: url,
        Entries: chunk.map((m, i) => ({ Id: `m${i}`, ReceiptHandle: m.ReceiptHandle })),
      }),
    );
  }
}

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += 10) out.push(items.slice(i, i + 10));
  return out;
}
