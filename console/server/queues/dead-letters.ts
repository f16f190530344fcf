import {
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { releaseAll, sendCopy } from '../../../cli/commands/redrive';
import {
  DEAD_LETTERS_LISTED,
  type DeadLetterPage,
  type DeadLetterRow,
  REDRIVE_MAX_PER_CLICK,
  type RedriveResult,
} from '../../shared/api';

/** A dead-letter queue the console shows, and the queue its messages are redriven to. */
export interface DeadLetterQueueRef {
  readonly name: string;
  readonly url: string;
  readonly target: { readonly name: string; readonly url: string };
}

/** Receive calls one listing or redrive makes at most (10 messages each). */
const MAX_RECEIVES = 20;
/** How long a listed or skipped message stays hidden before it is released (or expires). */
const HIDE_SECONDS = 30;

export class UnknownQueueError extends Error {}

/**
 * The dead-letter page's reads and the redrive action, on SQS directly (as `npm run cli --
 * redrive` copies: send to the source queue, then delete; never lost, at worst doubled, and the
 * consumer's inbox drops a doubled event).
 */
export function createDeadLetters(sqs: SQSClient, queues: readonly DeadLetterQueueRef[]) {
  const queueOf = (name: string) => {
    const queue = queues.find((q) => q.name === name);
    if (!queue) throw new UnknownQueueError(`no dead-letter queue named "${name}"`);
    return queue;
  };

  async function approximateCount(url: string): Promise<number> {
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: url,
        AttributeNames: ['ApproximateNumberOfMessages'],
      }),
    );
    return Number(Attributes?.ApproximateNumberOfMessages ?? 0);
  }

  /** Receives until `enough` says stop or the queue answers nothing; hides what it got. */
  async function receiveAll(
    url: string,
    enough: (got: readonly Message[]) => boolean,
  ): Promise<Message[]> {
    const got: Message[] = [];
    const seen = new Set<string>();
    for (let round = 0; round < MAX_RECEIVES && !enough(got); round++) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: url,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 0,
          VisibilityTimeout: HIDE_SECONDS,
          MessageAttributeNames: ['All'],
          MessageSystemAttributeNames: ['SentTimestamp', 'ApproximateReceiveCount'],
        }),
      );
      if (Messages.length === 0) break;
      for (const message of Messages) {
        if (message.MessageId && !seen.has(message.MessageId)) {
          seen.add(message.MessageId);
          got.push(message);
        }
      }
    }
    return got;
  }

  return {
    queueNames: () => queues.map((q) => q.name),

    /** Up to DEAD_LETTERS_LISTED messages per queue, made visible again right after. */
    async list(): Promise<DeadLetterPage> {
      const listed = [];
      for (const queue of queues) {
        const messages = await receiveAll(queue.url, (got) => got.length >= DEAD_LETTERS_LISTED);
        await releaseAll(sqs, queue.url, messages);
        listed.push({
          name: queue.name,
          target: queue.target.name,
          approximateCount: Math.max(messages.length, await approximateCount(queue.url)),
          messages: messages.slice(0, DEAD_LETTERS_LISTED).map(row),
        });
      }
      return { queues: listed };
    },

    /**
     * Moves the selected messages (or any, without a selection) back to the queue's target, at
     * most REDRIVE_MAX_PER_CLICK, and only messages dead-lettered before the click: one that is
     * still poison comes back and is not moved again by the same click.
     */
    async redrive(name: string, messageIds: readonly string[] | undefined): Promise<RedriveResult> {
      const queue = queueOf(name);
      const startedAt = Date.now();
      const wanted = messageIds === undefined ? undefined : new Set(messageIds);
      const moved: string[] = [];
      const skipped: Message[] = [];
      const full = () => moved.length >= REDRIVE_MAX_PER_CLICK;
      try {
        const messages = await receiveAll(queue.url, (got) =>
          wanted === undefined
            ? got.length >= REDRIVE_MAX_PER_CLICK
            : got.filter((m) => wanted.has(m.MessageId ?? '')).length >= wanted.size,
        );
        for (const message of messages) {
          const id = message.MessageId ?? '';
          const chosen = wanted === undefined ? sentBy(message, startedAt) : wanted.has(id);
          if (!chosen || full()) {
            skipped.push(message);
            continue;
          }
          await sendCopy(sqs, queue.target.url, message);
          // Deleted only once the copy is on the target: at least once, never lost.
          await sqs.send(
            new DeleteMessageCommand({ QueueUrl: queue.url, ReceiptHandle: message.ReceiptHandle }),
          );
          moved.push(id);
        }
      } finally {
        await releaseAll(sqs, queue.url, skipped);
      }
      const missing = wanted === undefined ? [] : [...wanted].filter((id) => !moved.includes(id));
      return {
        queue: queue.name,
        target: queue.target.name,
        moved,
        missing,
        remaining: await approximateCount(queue.url),
      };
    },
  };
}

export type DeadLetters = ReturnType<typeof createDeadLetters>;

function sentBy(message: Message, at: number): boolean {
  return Number(message.Attributes?.SentTimestamp ?? 0) <= at;
}

function row(message: Message): DeadLetterRow {
  const attribute = (name: string) => message.MessageAttributes?.[name]?.StringValue;
  const body = message.Body ?? '';
  const event = cloudEventOf(body);
  const sent = Number(message.Attributes?.SentTimestamp);
  const receives = Number(message.Attributes?.ApproximateReceiveCount);
  return {
    messageId: message.MessageId ?? '',
    ...(Number.isFinite(sent) && sent > 0 ? { sentAt: new Date(sent).toISOString() } : {}),
    ...(Number.isFinite(receives) ? { receiveCount: receives } : {}),
    ...optional('reason', attribute('error_code')),
    ...optional('detail', attribute('error_detail')),
    ...optional('type', event.type),
    ...optional('eventId', event.id),
    ...optional('subject', event.subject),
    body,
  };
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: string });
}

/** The CloudEvent fields of a body, when it is one; nothing otherwise. */
function cloudEventOf(body: string): { type?: string; id?: string; subject?: string } {
  try {
    const json: unknown = JSON.parse(body);
    if (typeof json !== 'object' || json === null) return {};
    const field = (name: string) => {
      const value = (json as Record<string, unknown>)[name];
      return typeof value === 'string' ? value : undefined;
    };
    return {
      ...optional('type', field('type')),
      ...optional('id', field('id')),
      ...optional('subject', field('subject')),
    };
  } catch {
    return {};
  }
}
