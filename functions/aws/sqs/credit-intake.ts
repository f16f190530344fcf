import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { CreditIntakeQueue } from '../../domain/intake/port';

/** SendMessageBatch takes at most this many messages. */
const SQS_BATCH = 10;

/**
 * `credit-intake` (docs/contract.md §24): one message `{ accountId }` per account with pending
 * credits, at least once (the folder posts whatever is pending, so a repeat posts nothing).
 */
export function createSqsCreditIntake(client: SQSClient, queueUrl: string): CreditIntakeQueue {
  return {
    async notify(accountIds) {
      const unsent: string[] = [];
      for (let start = 0; start < accountIds.length; start += SQS_BATCH) {
        const group = accountIds.slice(start, start + SQS_BATCH);
        try {
          const { Failed = [] } = await client.send(
            new SendMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: group.map((accountId, i) => ({
                Id: String(i),
                MessageBody: JSON.stringify({ accountId }),
              })),
            }),
          );
          for (const failure of Failed) {
            const accountId = group[Number(failure.Id)];
            if (accountId !== undefined) unsent.push(accountId);
          }
        } catch {
          unsent.push(...group);
        }
      }
      return unsent;
    },
  };
}
