import {
  CreateTopicCommand,
  type SNSClient,
  SNSClient as Sns,
  SubscribeCommand,
} from '@aws-sdk/client-sns';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { GAP_TAP_QUEUE_NAME, GAP_TOPIC_NAME } from '../../../functions/contract/gaps';
import { JOURNAL_TAP_QUEUE_NAME, JOURNAL_TOPIC_NAME } from '../../../functions/contract/journal';
import { LOCAL_AWS } from '../../../functions/contract/local-stack';
import { ensureQueue, type QueueRef } from './queues';

export function localSnsClient(endpoint: string): SNSClient {
  return new Sns({ ...LOCAL_AWS, endpoint, maxAttempts: 3 });
}

export interface TopicRef {
  readonly name: string;
  readonly arn: string;
  /** The queue subscribed with raw message delivery: the events as published, for tests and the CLI. */
  readonly tap: QueueRef;
}

export interface LocalTopics {
  /** `ledger-journal` (docs/contract.md §15) and its tap `ledger-journal-tap`. */
  readonly journal: TopicRef;
  /** `ledger-gaps` (docs/contract.md §18: re-fetch requests) and its tap `ledger-gaps-tap`. */
  readonly gaps: TopicRef;
}

/**
 * Creates the stack's SNS topics and their tap queues when they are missing (fauxqs serves SNS
 * on the SQS endpoint; SNS_ENDPOINT may name another) and subscribes each tap with raw message
 * delivery, so a message on it is the event itself. Safe to run again: CreateTopic and an
 * identical Subscribe answer what exists.
 */
export async function ensureTopics(
  sns: SNSClient,
  sqs: SQSClient,
  signal?: AbortSignal,
): Promise<LocalTopics> {
  return {
    journal: await ensureTopic(sns, sqs, JOURNAL_TOPIC_NAME, JOURNAL_TAP_QUEUE_NAME, signal),
    gaps: await ensureTopic(sns, sqs, GAP_TOPIC_NAME, GAP_TAP_QUEUE_NAME, signal),
  };
}

async function ensureTopic(
  sns: SNSClient,
  sqs: SQSClient,
  name: string,
  tapName: string,
  signal: AbortSignal | undefined,
): Promise<TopicRef> {
  const { TopicArn: arn } = await sns.send(new CreateTopicCommand({ Name: name }), {
    abortSignal: signal,
  });
  if (!arn) throw new Error(`CreateTopic ${name} returned no TopicArn`);
  const tap = await ensureQueue(sqs, tapName, signal);
  await subscribeRaw(sns, arn, tap, signal);
  return { name, arn, tap };
}

/**
 * Subscribes `queue` to the topic with raw message delivery, as lib/ does with
 * `SqsSubscription(…, { rawMessageDelivery: true })`: a message on it is the event itself.
 * Safe to run again (an identical Subscribe answers the existing subscription).
 */
export async function subscribeRaw(
  sns: SNSClient,
  topicArn: string,
  queue: QueueRef,
  signal: AbortSignal | undefined,
): Promise<void> {
  await sns.send(
    new SubscribeCommand({
      TopicArn: topicArn,
      Protocol: 'sqs',
      Endpoint: queue.arn,
      Attributes: { RawMessageDelivery: 'true' },
    }),
    { abortSignal: signal },
  );
}
