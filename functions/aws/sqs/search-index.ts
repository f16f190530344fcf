import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { IndexJob, IndexQueue } from '../../domain/search/port';

/** SendMessageBatch takes at most this many messages. */
const SQS_BATCH = 10;

/** `search-index` (docs/contract.md §34): one message per job, at least once. */
export function createSqsSearchIndex(client: SQSClient, queueUrl: string): IndexQueue {
  return {
    async send(jobs) {
      const unsent: IndexJob[] = [];
      for (let start = 0; start < jobs.length; start += SQS_BATCH) {
        const group = jobs.slice(start, start + SQS_BATCH);
        try {
          const { Failed = [] } = await client.send(
            new SendMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: group.map((job, i) => ({ Id: String(i), MessageBody: JSON.stringify(job) })),
            }),
          );
          for (const failure of Failed) {
            const job = group[Number(failure.Id)];
            if (job !== undefined) unsent.push(job);
          }
        } catch {
          unsent.push(...group);
        }
      }
      return unsent;
    },
  };
}
