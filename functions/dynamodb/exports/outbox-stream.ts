import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { OUTBOX_ITEM_KIND } from '../../contract/names';
import type { ExportJob } from '../../domain/exports/model';
import { ExportJobSchema } from '../../schemas/exports/jobs';

/** What one stream record means to the outbox dispatcher. */
export type OutboxInsert =
  | { readonly kind: 'job'; readonly job: ExportJob }
  /** An outbox item whose job does not read as the contract's message (a bug, not a state). */
  | { readonly kind: 'malformed'; readonly pk: unknown; readonly issues: number }
  /** Anything else on the table's stream: other items, updates, deletes. */
  | { readonly kind: 'other' };

/**
 * Decodes a table stream record into the export job a newly inserted outbox item carries, so
 * the dispatcher never sees DynamoDB attribute values.
 */
export function decodeOutboxInsert(record: DynamoDBRecord): OutboxInsert {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image) return { kind: 'other' };
  // aws-lambda's stream AttributeValue mirrors the SDK's; the SDK type is what unmarshall takes.
  const item = unmarshall(image as Record<string, AttributeValue>);
  if (item.kind !== OUTBOX_ITEM_KIND) return { kind: 'other' };
  const job = ExportJobSchema.safeParse(item.job);
  return job.success
    ? { kind: 'job', job: job.data }
    : { kind: 'malformed', pk: item.pk, issues: job.error.issues.length };
}
