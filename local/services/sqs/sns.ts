import type { SNSClient } from '@aws-sdk/client-sns';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { Lifecycle } from '../lifecycle';
import { ensureTopics, type LocalTopics, localSnsClient } from './topics';

export interface SnsService {
  readonly endpoint: string;
  /** Shared by every in-process service; destroyed at shutdown. */
  readonly client: SNSClient;
  readonly topics: LocalTopics;
}

/** SNS on `endpoint` (fauxqs' own by default) with the topics and their tap queues in place. */
export async function startSnsService(
  lifecycle: Lifecycle,
  endpoint: string,
  sqs: SQSClient,
): Promise<SnsService> {
  const client = localSnsClient(endpoint);
  lifecycle.defer('SNS client', () => client.destroy());
  const topics = await ensureTopics(client, sqs, lifecycle.signal);
  return { endpoint, client, topics };
}
