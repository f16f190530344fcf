import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { PENDING_CREDIT_KIND } from './items';

/** A pending credit just written, as the dispatcher needs it: its account and acceptance. */
export interface PendingCreditInsert {
  readonly accountId: string;
  readonly acceptedAt: string;
}

/**
 * A pending credit just written (docs/contract.md §24), as the outbox dispatcher reads it on the
 * table's stream to feed `credit-intake` and mark its account `INTAKE_DUE` (§36); undefined for
 * every other record (other items, updates, the folder's own deletes).
 */
export function decodePendingCreditInsert(record: DynamoDBRecord): PendingCreditInsert | undefined {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image) return undefined;
  // aws-lambda's stream AttributeValue mirrors the SDK's; the SDK type is what unmarshall takes.
  const item = unmarshall(image as Record<string, AttributeValue>);
  if (item.kind !== PENDING_CREDIT_KIND || typeof item.accountId !== 'string') return undefined;
  return { accountId: item.accountId, acceptedAt: String(item.acceptedAt) };
}
