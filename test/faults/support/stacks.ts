import { randomUUID } from 'node:crypto';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from '../../../kit/free-port';
import { localSqsClient, startSqsEmulator } from '../../../local/services/sqs/fauxqs';
import { ensureQueues, type LocalQueues } from '../../../local/services/sqs/queues';
import { ensureTopics, type LocalTopics, localSnsClient } from '../../../local/services/sqs/topics';
import { type LocalStack, startLocalStack } from '../../e2e/support/stack';
import { dynamoEndpoint } from '../../support/dynamo-lease';
import { type FaultProxy, startFaultProxy } from '../../support/fault-proxy';
import type { StackClient } from './stack-client';

/** What the stacks of one fault test file share, and how to start one more. */
export interface FileStacks {
  readonly sqs: SQSClient;
  readonly queues: LocalQueues;
  readonly topics: LocalTopics;
  /** Every stack's SNS goes through it: an outage makes every publish fail. */
  readonly sns: FaultProxy;
  /** Starts `npm start` once more, on the file's table and emulator. */
  start(): Promise<LocalStack>;
}

/**
 * The local stacks of one fault test file, as `npm start` runs them: one SQS and SNS emulator
 * with the stack's queues and topics (SNS behind a fault proxy that can go down), one fresh
 * table `<name>-<uuid>` on the run's DynamoDB Local, `env` on top; every stack started is
 * SIGKILLed after the file.
 */
export function stacksPerFile(name: string, env: Record<string, string> = {}): () => FileStacks {
  let stacks: FileStacks | undefined;
  const started: LocalStack[] = [];
  let stop = async () => {};
  beforeAll(async () => {
    const emulator = await startSqsEmulator(await freePort());
    const sqs = localSqsClient(emulator.endpoint);
    const sns = await startFaultProxy(emulator.endpoint);
    stop = async () => {
      for (const stack of started) stack.kill();
      await sns.close();
      sqs.destroy();
      await emulator.stop();
    };
    const queues = await ensureQueues(sqs);
    const topics = await ensureTopics(localSnsClient(emulator.endpoint), sqs);
    const stackEnv = {
      DYNAMODB_ENDPOINT: dynamoEndpoint(),
      SQS_ENDPOINT: emulator.endpoint,
      SNS_ENDPOINT: sns.endpoint,
      TABLE_NAME: `${name}-${randomUUID()}`,
      ...env,
    };
    stacks = {
      sqs,
      queues,
      topics,
      sns,
      start: async () => {
        const stack = await startLocalStack(stackEnv);
        started.push(stack);
        return stack;
      },
    };
  });
  afterAll(() => stop());
  return () => {
    if (!stacks) throw new Error("stacksPerFile: used outside the file's tests");
    return stacks;
  };
}

/** Polls `check` every `everyMs` until it holds; fails naming `what` after `timeoutMs`. */
export async function until(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  everyMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** HTTP credits from several callers at once, each POSTed until it has a final answer. */
export interface ConcurrentCredits {
  /** What was sent: key and body per credit (the body's `reference` is the key). */
  readonly requests: readonly { key: string; body: { amount: number } & Record<string, unknown> }[];
  /** Credits answered so far. */
  completed(): number;
  /** Every answer, once the callers are through. */
  readonly answers: Promise<{ key: string; status: number; body: string }[]>;
}

/**
 * `count` credits of `firstAmount + i` into `accountId`, keys `<prefix>-<i>`, taken in order by
 * `callers` concurrent callers; `api` may switch stacks underneath (its base is read per call).
 */
export function creditConcurrently(
  api: StackClient,
  accountId: string,
  options: { prefix: string; count: number; callers: number; firstAmount: number },
): ConcurrentCredits {
  const requests = Array.from({ length: options.count }, (_, i) => ({
    key: `${options.prefix}-${i}`,
    body: {
      type: 'credit',
      amount: options.firstAmount + i,
      currency: 'EUR',
      reference: `${options.prefix}-${i}`,
    },
  }));
  let completed = 0;
  const queue = [...requests];
  const callers = Array.from({ length: options.callers }, async () => {
    const answers: { key: string; status: number; body: string }[] = [];
    for (let next = queue.shift(); next; next = queue.shift()) {
      const answer = await api.postUntilFinal(
        `/v1/accounts/${accountId}/transactions`,
        next.key,
        next.body,
      );
      completed++;
      answers.push({ key: next.key, ...answer });
    }
    return answers;
  });
  return {
    requests,
    completed: () => completed,
    answers: Promise.all(callers).then((all) => all.flat()),
  };
}
