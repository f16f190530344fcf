import { GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { deadLetterQueueRefs } from '../../../console/server/queues/refs';

const sqs = mockClient(SQSClient);
afterEach(() => sqs.reset());

describe("the console's dead-letter queues (docs/contract.md §29, §31)", () => {
  it('lists credit-intake-dlq beside the others, each with the queue it redrives to', async () => {
    sqs.on(GetQueueUrlCommand).callsFake(async ({ QueueName }) => ({
      QueueUrl: `http://sqs/${QueueName}`,
    }));
    const refs = await deadLetterQueueRefs(new SQSClient({ region: 'us-east-1' }), 'AWS', 'prod-');
    expect(refs.map((ref) => [ref.name, ref.target.name])).toEqual([
      ['prod-ledger-events-dlq', 'prod-ledger-events'],
      ['prod-export-jobs-dlq', 'prod-export-jobs'],
      ['prod-credit-intake-dlq', 'prod-credit-intake'],
    ]);
    expect(refs.at(-1)?.url).toBe('http://sqs/prod-credit-intake-dlq');
  });
});
