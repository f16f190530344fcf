import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { ExportJobQueue } from '../../domain/exports/port';

/** `export-jobs` (docs/contract.md §8): at least once; consumers dedup by `executionId`. */
export function createSqsExportJobs(client: SQSClient, queueUrl: string): ExportJobQueue {
  return {
    async send(job) {
      await client.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: JSON.stringify(job),
          MessageAttributes: {
            executionId: { DataType: 'String', StringValue: job.executionId },
            taskId: { DataType: 'String', StringValue: job.taskId },
          },
        }),
      );
    },
  };
}
