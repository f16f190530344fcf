import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';

export interface DeadLetter {
  /** The original body, unchanged. */
  readonly body: string;
  readonly code: string;
  readonly detail: string;
  readonly sourceMessageId: string;
}

export interface DeadLetterPort {
  send(letter: DeadLetter): Promise<void>;
}

/** SQS message attribute values are limited; a detail never needs more than this. */
const MAX_DETAIL_LENGTH = 1000;

export function createSqsDeadLetters(client: SQSClient, queueUrl: string): DeadLetterPort {
  return {
    async send(letter) {
      await client.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: letter.body,
          MessageAttributes: {
            error_code: { DataType: 'String', StringValue: letter.code },
            error_detail: {
              DataType: 'String',
              StringValue: letter.detail.slice(0, MAX_DETAIL_LENGTH) || letter.code,
            },
            source_message_id: { DataType: 'String', StringValue: letter.sourceMessageId },
          },
        }),
      );
    },
  };
}
