import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import type { JournalProjector } from '../../domain/journal-projector/projector';
import { decodeAccountChange } from '../../dynamodb/journal/stream';

export type JournalProjectorHandler = (
  event: DynamoDBStreamEvent,
) => Promise<DynamoDBBatchResponse>;

/**
 * The projector behind the table stream's event source: decodes each record, projects the
 * batch, and reports the first record to retry from (ReportBatchItemFailures, in order: every
 * record after it comes again, and those already projected are no-ops then).
 */
export function journalStreamHandler(projector: JournalProjector): JournalProjectorHandler {
  return async (event) => {
    const failedAt = await projector.project(event.Records.map(decodeAccountChange));
    if (failedAt === undefined) return { batchItemFailures: [] };
    const failed = event.Records[failedAt];
    return { batchItemFailures: [{ itemIdentifier: failed?.dynamodb?.SequenceNumber ?? '' }] };
  };
}
