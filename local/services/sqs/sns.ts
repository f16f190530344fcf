import type { SNSClient } from '@aws-sdk/client-sns';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { Lifecycle } from '../lifecycle';
import type { QueueRef } from './queues';
import { ensureTopics, type LocalTopics, localSnsClient, subscribeRaw } from './topics';

export interface SnsService {
  readonly endpoint: string;
  /** Shared by every in-process service; destroyed at shutdown. */
  readonly client: SNSClient;
  readonly topics: LocalTopics;
}

/**
 * SNS on `endpoint` (fauxqs' own by default) with the topics and their tap queues in place, and
 * `journalSubscribers` (the webhook delivery queue, as lib/ subscribes it) on the journal topic.
 */
export async function startSnsService(
  lifecycle: Lifecycle,
  endpoint: string,
  sqs: SQSClient,
  journalSubscribers: readonly QueueRef[] = [],
): Promise<SnsService> {
  const client = localSnsClient(endpoint);
  lifecycle.defer('SNS client', () => client.destroy());
  const topics = await ensureTopics(client, sqs, lifecycle.signal);
  for (const queue of journalSubscribers) {
    await subscribeRaw(client, topics.journal.arn, queue, lifecycle.signal);
  }
  return { endpoint, client, topics };
}
