import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ListMessageMoveTasksCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
  StartMessageMoveTaskCommand,
} from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseRedriveArgs, redriveCommand } from '../../../cli/commands/redrive';
import { recordingContext } from '../../support/cli/context';

const sqs = mockClient(SQSClient);
const { ctx, lines } = recordingContext();

beforeEach(() => {
  sqs.reset();
  lines.length = 0;
  sqs.on(GetQueueUrlCommand).callsFake((input: { QueueName: string }) => ({
    QueueUrl: `http://sqs/${input.QueueName}`,
  }));
  sqs.on(GetQueueAttributesCommand).callsFake((input: { QueueUrl: string }) => ({
    Attributes: { QueueArn: `arn:aws:sqs:eu-west-1:1:${input.QueueUrl.split('/').pop()}` },
  }));
});

describe('redrive', () => {
  it('picks copy locally and a move task on AWS', () => {
    expect(parseRedriveArgs([], {})).toMatchObject({ mode: 'copy', dlq: 'ledger-events-dlq' });
    expect(parseRedriveArgs(['--aws'], {})).toMatchObject({
      mode: 'move-task',
      to: 'ledger-events',
    });
    expect(parseRedriveArgs(['--aws', '--dlq', 'prod-export-jobs-dlq'], {})).toMatchObject({
      to: 'prod-export-jobs',
    });
    // The folder's dead letters go back to the folder's queue (docs/contract.md §24).
    expect(parseRedriveArgs(['--dlq', 'credit-intake-dlq'], {})).toMatchObject({
      to: 'credit-intake',
    });
  });

  it('copies each dead letter with its attributes, deleting it only after the send', async () => {
    const message = {
      MessageId: 'm1',
      ReceiptHandle: 'rh1',
      Body: '{"raw":true}',
      MessageAttributes: { error_code: { DataType: 'String', StringValue: 'unknown_account' } },
    };
    sqs
      .on(ReceiveMessageCommand)
      .resolvesOnce({ Messages: [message] })
      .resolves({ Messages: [] });
    sqs.on(SendMessageCommand).resolves({ MessageId: 'new' });
    sqs.on(DeleteMessageCommand).resolves({});
    expect(await redriveCommand.run([], ctx)).toBe(0);
    const send = sqs.commandCalls(SendMessageCommand)[0]?.args[0].input;
    expect(send).toMatchObject({
      QueueUrl: 'http://sqs/ledger-events',
      MessageBody: '{"raw":true}',
      MessageAttributes: message.MessageAttributes,
    });
    expect(sqs.commandCalls(DeleteMessageCommand)[0]?.args[0].input).toMatchObject({
      QueueUrl: 'http://sqs/ledger-events-dlq',
      ReceiptHandle: 'rh1',
    });
    expect(lines.at(-1)).toContain('1 message(s) moved');
  });

  it('moves only what was dead-lettered before it started (no loop on a message still poison)', async () => {
    const old = {
      MessageId: 'old',
      ReceiptHandle: 'r1',
      Body: 'a',
      Attributes: { SentTimestamp: '1000' },
    };
    const back = {
      MessageId: 'back',
      ReceiptHandle: 'r2',
      Body: 'a',
      Attributes: { SentTimestamp: String(Date.now() + 60_000) },
    };
    sqs
      .on(ReceiveMessageCommand)
      .resolvesOnce({ Messages: [old] })
      .resolves({ Messages: [back] });
    sqs.on(SendMessageCommand).resolves({});
    sqs.on(DeleteMessageCommand).resolves({});
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    expect(await redriveCommand.run([], ctx)).toBe(0);
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(1);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)[0]?.args[0].input).toMatchObject({
      ReceiptHandle: 'r2',
      VisibilityTimeout: 0,
    });
    expect(lines.at(-1)).toContain('1 message(s) moved');
  });

  it('keeps the dead letter when the send fails', async () => {
    sqs
      .on(ReceiveMessageCommand)
      .resolves({ Messages: [{ MessageId: 'm', ReceiptHandle: 'r', Body: 'x' }] });
    sqs.on(SendMessageCommand).rejects(new Error('unreachable'));
    await expect(redriveCommand.run([], ctx)).rejects.toThrow('unreachable');
    expect(sqs.commandCalls(DeleteMessageCommand)).toHaveLength(0);
  });

  it('starts an SQS move task on AWS and follows it to the end', async () => {
    sqs.on(StartMessageMoveTaskCommand).resolves({ TaskHandle: 'task-1' });
    sqs.on(ListMessageMoveTasksCommand).resolves({
      Results: [
        {
          Status: 'COMPLETED',
          ApproximateNumberOfMessagesMoved: 3,
          ApproximateNumberOfMessagesToMove: 3,
        },
      ],
    });
    expect(
      await redriveCommand.run(['--aws', '--dlq', 'prod-ledger-events-dlq', '--rate', '10'], ctx),
    ).toBe(0);
    expect(sqs.commandCalls(StartMessageMoveTaskCommand)[0]?.args[0].input).toEqual({
      SourceArn: 'arn:aws:sqs:eu-west-1:1:prod-ledger-events-dlq',
      DestinationArn: 'arn:aws:sqs:eu-west-1:1:prod-ledger-events',
      MaxNumberOfMessagesPerSecond: 10,
    });
    expect(lines).toContain('status COMPLETED: moved 3 of 3');
  });
});
