import { PublishBatchCommand, SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { expect, it } from 'vitest';
import { createSnsJournalEvents } from '../../../functions/aws/sns-journal-events';
import { journalEvent } from '../../../functions/domain/journal/events';

const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:ledger-journal';
const event = (sequence: number) =>
  journalEvent(
    {
      accountId: 'a1',
      sequence,
      kind: 'credit',
      balanceDelta: 5,
      availableDelta: 5,
      balanceAfter: 5 * sequence,
      availableAfter: 5 * sequence,
      committedAt: '2026-12-01T10:00:00.000Z',
      entryId: `e${sequence}`,
    },
    'urn:idempotent-ledger:test',
  );

it('publishes the CloudEvent as the message, with type, subject and kind attributes (docs/contract.md §15)', async () => {
  const sns = mockClient(SNSClient);
  sns.on(PublishBatchCommand).resolves({ Successful: [{ Id: 'e0' }, { Id: 'e1' }], Failed: [] });
  const topic = createSnsJournalEvents(new SNSClient({ region: 'eu-west-1' }), TOPIC);
  expect(await topic.publish([event(1), event(2)])).toEqual([]);
  const input = sns.commandCalls(PublishBatchCommand)[0]?.args[0].input;
  expect(input?.TopicArn).toBe(TOPIC);
  const [first] = input?.PublishBatchRequestEntries ?? [];
  expect(JSON.parse(first?.Message ?? '')).toEqual(event(1));
  expect(first?.MessageAttributes).toEqual({
    type: { DataType: 'String', StringValue: 'ledger.journal.v1' },
    subject: { DataType: 'String', StringValue: 'a1' },
    kind: { DataType: 'String', StringValue: 'credit' },
  });
  // SNS batch ids allow no ':'; the event id has one.
  expect(input?.PublishBatchRequestEntries?.map((e) => e.Id)).toEqual(['e0', 'e1']);
});

it('answers the ids of the events SNS did not accept', async () => {
  const sns = mockClient(SNSClient);
  sns.on(PublishBatchCommand).resolves({
    Successful: [{ Id: 'e0' }],
    Failed: [{ Id: 'e1', Code: 'InternalError', SenderFault: false }],
  });
  const topic = createSnsJournalEvents(new SNSClient({ region: 'eu-west-1' }), TOPIC);
  expect(await topic.publish([event(1), event(2)])).toEqual(['a1:0000000000000002']);
  expect(await topic.publish([])).toEqual([]);
  expect(sns.commandCalls(PublishBatchCommand)).toHaveLength(1);
});
