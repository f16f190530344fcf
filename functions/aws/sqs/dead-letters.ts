import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { DEAD_LETTER_ATTRIBUTES } from '../../contract/events';
import type { DeadLetterPort } from '../../domain/events/port';

/** SQS message attribute values are limited; a detail never needs more than this. */
const MAX_DETAIL_LENGTH = 1000;

/**
 * error_detail without control characters or lone surrogates (docs/contract.md §6): the detail
 * can quote producer text (a data key with a NUL byte), which SQS would refuse in an attribute
 * and which would garble an operator's terminal. Cut by code points so no pair is split.
 */
export function cleanDetail(detail: string): string {
  const printable = detail.replace(/\p{Cc}|[\uD800-\uDFFF]/gu, '');
  return Array.from(printable).slice(0, MAX_DETAIL_LENGTH).join('');
}

export function createSqsDeadLetters(client: SQSClient, queueUrl: string): DeadLetterPort {
  return {
    async send(letter) {
      await client.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: letter.body,
          MessageAttributes: {
            [DEAD_LETTER_ATTRIBUTES.code]: { DataType: 'String', StringValue: letter.code },
            [DEAD_LETTER_ATTRIBUTES.detail]: {
              DataType: 'String',
              StringValue: cleanDetail(letter.detail) || letter.code,
            },
            [DEAD_LETTER_ATTRIBUTES.sourceMessageId]: {
              DataType: 'String',
              StringValue: letter.sourceMessageId,
            },
          },
        }),
      );
    },
  };
}
