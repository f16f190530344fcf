import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { expect, it } from 'vitest';
import { createSqsDeadLetters } from '../../../functions/queue/dead-letter';

it('sends the body unchanged with error_code and error_detail attributes', async () => {
  const sqs = mockClient(SQSClient);
  sqs.on(SendMessageCommand).resolves({ MessageId: 'm' });
  const dlq = createSqsDeadLetters(new SQSClient({ region: 'eu-west-1' }), 'https://sqs/dlq');
  await dlq.send({
    body: ' {raw} ',
    code: 'schema_invalid',
    detail: 'x'.repeat(5000),
    sourceMessageId: 'id-1',
  });
  const input = sqs.commandCalls(SendMessageCommand)[0]?.args[0].input;
  expect(input?.QueueUrl).toBe('https://sqs/dlq');
  expect(input?.MessageBody).toBe(' {raw} ');
  expect(input?.MessageAttributes?.error_code).toEqual({
    DataType: 'String',
    StringValue: 'schema_invalid',
  });
  expect(input?.MessageAttributes?.error_detail?.StringValue).toHaveLength(1000);
  expect(input?.MessageAttributes?.source_message_id?.StringValue).toBe('id-1');
});
