import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { expect, it } from 'vitest';
import { createSqsDeadLetters } from '../../../functions/aws/sqs/dead-letters';

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

it('strips control characters and lone surrogates from error_detail (docs/contract.md §6)', async () => {
  const sqs = mockClient(SQSClient);
  sqs.on(SendMessageCommand).resolves({ MessageId: 'm' });
  const dlq = createSqsDeadLetters(new SQSClient({ region: 'eu-west-1' }), 'https://sqs/dlq');
  // A data key with a NUL byte lands in the schema detail verbatim; the body itself is kept.
  const body = '{"data":{"a\\u0000b":1}}';
  const detail = `data.a\u0000b: unrecognized key\u0007\r\n\ud800 ${'x'.repeat(990)}😀😀`;
  await dlq.send({ body, code: 'schema_invalid', detail, sourceMessageId: 'id-2' });
  const input = sqs.commandCalls(SendMessageCommand)[0]?.args[0].input;
  const sent = input?.MessageAttributes?.error_detail?.StringValue ?? '';
  expect(sent).not.toMatch(/\p{Cc}/u);
  expect(sent).not.toMatch(/[\uD800-\uDFFF]/u);
  expect(sent.startsWith('data.ab: unrecognized key')).toBe(true);
  expect(input?.MessageBody).toBe(body);
});
