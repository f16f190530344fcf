/**
 * The SQS baseline: a plain loop that handles a batch one record after another, one transaction
 * per record (inbox record + balance update + ledger entry), acknowledging what committed.
 * It is what a consumer without lanes does; ours runs records of different accounts at once.
 */

import { randomUUID } from 'node:crypto';
import {
  type DynamoDBClient,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { PostingEntry } from '../../functions/domain/accounts/model';
import { epochSeconds } from '../../functions/domain/shared/time';
import { inboxItem } from '../../functions/dynamodb/events/items';
import { composeMoney } from '../../functions/dynamodb/movements/compose';
import { entryLeg } from '../../functions/dynamodb/movements/plan';

interface PlainLedgerEvent {
  readonly id: string;
  readonly source: string;
  readonly type: string;
  readonly subject: string;
  readonly data: { readonly amount: number; readonly currency: string };
}

export function createSequentialConsumer(options: {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly retentionSeconds: number;
}): (event: SQSEvent) => Promise<SQSBatchResponse> {
  return async (event) => {
    const failures: { itemIdentifier: string }[] = [];
    for (const record of event.Records) {
      const body = JSON.parse(record.body) as PlainLedgerEvent;
      const nowSeconds = epochSeconds();
      const type = body.type === 'ledger.debit.v1' ? 'debit' : 'credit';
      const entry: PostingEntry = {
        id: randomUUID(),
        accountId: body.subject,
        type,
        amount: body.data.amount,
        currency: body.data.currency,
        origin: 'event',
        createdAt: new Date().toISOString(),
        effectiveAt: new Date().toISOString(),
      };
      const claim = {
        source: body.source,
        id: body.id,
        nowSeconds,
        expiresAt: nowSeconds + options.retentionSeconds,
      };
      try {
        await options.client.send(
          new TransactWriteItemsCommand({
            TransactItems: [
              inboxItem(options.tableName, claim, entry.id),
              ...composeMoney(options.tableName, {
                movements: [{ legs: [entryLeg(entry, { currency: entry.currency })] }],
              }).map((part) => part.item),
            ],
          }),
        );
      } catch (error) {
        // A failed inbox condition is a duplicate (acknowledged); anything else is redelivered.
        if (!(error instanceof TransactionCanceledException)) {
          failures.push({ itemIdentifier: record.messageId });
        }
      }
    }
    return { batchItemFailures: failures };
  };
}
