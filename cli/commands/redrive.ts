import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ListMessageMoveTasksCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
  StartMessageMoveTaskCommand,
} from '@aws-sdk/client-sqs';
import { QUEUE_NAMES } from '../../functions/contract/names';
import { describeError } from '../../functions/domain/shared/log';
import { intOption, oneOf, parseCommandArgs, stringOption } from '../args';
import type { CliContext, Command } from '../command';
import { sqsEndpoint } from '../config';
import { CliError } from '../errors';
import { queueUrl, sqsClient } from '../sqs';

const NAME = 'redrive';
const MODES = ['auto', 'move-task', 'copy'] as const;
type Mode = (typeof MODES)[number];

const OPTIONS = {
  dlq: { type: 'string' },
  to: { type: 'string' },
  mode: { type: 'string' },
  aws: { type: 'boolean' },
  rate: { type: 'string' },
  max: { type: 'string' },
  sqs: { type: 'string' },
} as const;

export interface RedriveArgs {
  readonly dlq: string;
  /** Where the messages go; by default the DLQ's name without `-dlq`. */
  readonly to: string;
  readonly mode: Exclude<Mode, 'auto'>;
  /** Real AWS (credentials and region from the environment) instead of the local emulator. */
  readonly aws: boolean;
  readonly rate: number | undefined;
  readonly max: number;
  readonly sqs: string;
}

export function parseRedriveArgs(argv: readonly string[], env: Record<string, string | undefined>) {
  const { values, help } = parseCommandArgs(NAME, argv, OPTIONS);
  if (help) return { help: true as const };
  const aws = values.aws === true;
  const mode: Mode = oneOf(values, 'mode', NAME, MODES) ?? 'auto';
  return {
    help: false as const,
    dlq: stringOption(values, 'dlq') ?? QUEUE_NAMES.ledgerEventsDeadLetter,
    to:
      stringOption(values, 'to') ??
      sourceQueueOf(stringOption(values, 'dlq') ?? QUEUE_NAMES.ledgerEventsDeadLetter),
    // SQS move tasks exist on AWS; the local emulator has none, so locally we copy.
    mode: mode === 'auto' ? (aws ? 'move-task' : 'copy') : mode,
    aws,
    rate: intOption(values, 'rate', NAME, { min: 1, max: 500 }),
    max: intOption(values, 'max', NAME, { min: 1, max: 100_000 }) ?? 10_000,
    sqs: aws ? '' : sqsEndpoint(stringOption(values, 'sqs'), env, NAME),
  } satisfies RedriveArgs & { help: false };
}

/**
 * The queue a DLQ belongs to, by the naming every stage uses (`<name>-dlq` → `<name>`). Given
 * explicitly because messages the consumer dead-lettered itself record no source queue.
 */
function sourceQueueOf(dlq: string): string {
  return dlq.endsWith('-dlq') ? dlq.slice(0, -'-dlq'.length) : QUEUE_NAMES.ledgerEvents;
}

export const redriveCommand: Command = {
  name: NAME,
  help: `Usage: npm run cli -- redrive [--dlq <name>] [--to <name>] [--aws] [--mode auto|move-task|copy]

Moves the messages of a dead-letter queue back to a source queue, for after the cause was fixed
(an account created, a deploy rolled back). Redriven messages are safe to replay: the consumer's
inbox drops any event that was already applied, and one that is still poison returns to the DLQ.

  move-task   SQS StartMessageMoveTask (what the console's "Start DLQ redrive" does), then
              follows ListMessageMoveTasks until it ends. AWS only.
  copy        receive from the DLQ, send body and attributes to the source, then delete from
              the DLQ (a crash in between leaves a duplicate, never a loss). Only messages
              that were in the DLQ when it started: one that is still poison and comes back
              is left there, not moved again. Works anywhere.
  auto        move-task with --aws, copy otherwise (the local emulator has no move tasks).

Options:
  --dlq <name>     dead-letter queue name or URL (default ${QUEUE_NAMES.ledgerEventsDeadLetter};
                   also ${QUEUE_NAMES.exportJobsDeadLetter}, ${QUEUE_NAMES.creditIntakeDeadLetter})
  --to <name>      destination queue name or URL (default: the DLQ's name without -dlq,
                   e.g. prod-ledger-events-dlq -> prod-ledger-events). Always explicit in
                   the move task: what the consumer dead-lettered itself records no source.
  --aws            use AWS (credentials and region from the environment), not the local stack
  --rate <n>       move-task: at most n messages per second (default: SQS decides)
  --max <n>        copy: stop after n messages (default 10000)
  --sqs <url>      local SQS endpoint (default: SQS_ENDPOINT, else http://127.0.0.1:$SQS_PORT)
  -h, --help       this help`,
  async run(argv, ctx) {
    const args = parseRedriveArgs(argv, ctx.env);
    if (args.help) {
      ctx.out(redriveCommand.help);
      return 0;
    }
    const client = args.aws ? new SQSClient({}) : sqsClient(args.sqs);
    try {
      const resolve = (nameOrUrl: string) =>
        nameOrUrl.includes('://')
          ? nameOrUrl
          : queueUrl(client, args.sqs || 'AWS', nameOrUrl, ctx.signal);
      const dlqUrl = await resolve(args.dlq);
      if (args.mode === 'move-task') {
        return await moveTask(client, dlqUrl, await resolve(args.to), args, ctx);
      }
      return await copy(client, dlqUrl, await resolve(args.to), args.max, ctx);
    } finally {
      client.destroy();
    }
  },
};

async function arnOf(client: SQSClient, url: string): Promise<string> {
  const { Attributes } = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }),
  );
  const arn = Attributes?.QueueArn;
  if (!arn) throw new CliError(`no QueueArn for ${url}`);
  return arn;
}

async function moveTask(
  client: SQSClient,
  dlqUrl: string,
  targetUrl: string | undefined,
  args: RedriveArgs,
  ctx: CliContext,
): Promise<number> {
  const sourceArn = await arnOf(client, dlqUrl);
  const destinationArn = targetUrl ? await arnOf(client, targetUrl) : undefined;
  try {
    const { TaskHandle } = await client.send(
      new StartMessageMoveTaskCommand({
        SourceArn: sourceArn,
        ...(destinationArn ? { DestinationArn: destinationArn } : {}),
        ...(args.rate ? { MaxNumberOfMessagesPerSecond: args.rate } : {}),
      }),
    );
    ctx.out(`move task started: ${TaskHandle ?? '(no handle)'}`);
  } catch (error) {
    throw new CliError(
      `StartMessageMoveTask failed (${describeError(error)}). Locally, use --mode copy: the emulator ` +
        'has no move tasks.',
    );
  }
  for (;;) {
    const { Results = [] } = await client.send(
      new ListMessageMoveTasksCommand({ SourceArn: sourceArn, MaxResults: 1 }),
    );
    const task = Results[0];
    ctx.out(
      `status ${task?.Status ?? 'unknown'}: moved ${task?.ApproximateNumberOfMessagesMoved ?? 0} of ` +
        `${task?.ApproximateNumberOfMessagesToMove ?? '?'}`,
    );
    if (task?.Status !== 'RUNNING' || ctx.signal.aborted) {
      if (task?.Status === 'FAILED') throw new CliError(`move task failed: ${task.FailureReason}`);
      return 0;
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

async function copy(
  client: SQSClient,
  dlqUrl: string,
  targetUrl: string,
  max: number,
  ctx: CliContext,
): Promise<number> {
  // Only what was dead-lettered before we started: a message that is still poison comes back
  // to the DLQ within a second, and must not be moved again (that would loop until --max).
  const startedAt = Date.now();
  let moved = 0;
  let done = false;
  while (!done && moved < max && !ctx.signal.aborted) {
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: dlqUrl,
        MaxNumberOfMessages: Math.min(10, max - moved),
        WaitTimeSeconds: 1,
        VisibilityTimeout: 60,
        MessageAttributeNames: ['All'],
        MessageSystemAttributeNames: ['SentTimestamp'],
      }),
    );
    if (Messages.length === 0) break;
    const earlier = Messages.filter((m) => Number(m.Attributes?.SentTimestamp ?? 0) <= startedAt);
    const later = Messages.filter((m) => !earlier.includes(m));
    if (later.length > 0) {
      done = true;
      await releaseAll(client, dlqUrl, later);
    }
    for (const message of earlier) {
      await sendCopy(client, targetUrl, message);
      // Delete only after the copy is on the source queue: at least once, never lost.
      await client.send(
        new DeleteMessageCommand({ QueueUrl: dlqUrl, ReceiptHandle: message.ReceiptHandle }),
      );
      moved++;
      const code = message.MessageAttributes?.error_code?.StringValue;
      ctx.out(`moved ${message.MessageId}${code ? ` (was ${code})` : ''}`);
    }
  }
  ctx.out(`${moved} message(s) moved from ${dlqUrl} to ${targetUrl}`);
  return 0;
}

/** Makes messages we will not move visible again at once. */
export async function releaseAll(
  client: SQSClient,
  url: string,
  messages: Message[],
): Promise<void> {
  for (const message of messages) {
    await client.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: url,
        ReceiptHandle: message.ReceiptHandle,
        VisibilityTimeout: 0,
      }),
    );
  }
}

/** Sends a dead letter's body and attributes to `targetUrl` (the console's redrive too). */
export function sendCopy(client: SQSClient, targetUrl: string, message: Message) {
  return client.send(
    new SendMessageCommand({
      QueueUrl: targetUrl,
      MessageBody: message.Body ?? '',
      ...(message.MessageAttributes ? { MessageAttributes: message.MessageAttributes } : {}),
    }),
  );
}
