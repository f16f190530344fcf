import { ConditionalCheckFailedException, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { DEFAULT_INBOX_RETENTION_SECONDS } from '../../contract/retention';
import type { GapRequestStore } from '../../domain/gaps/port';
import { epochSeconds } from '../../domain/shared/time';
import { unexpectedFailure } from '../idempotency/command';
import { LEAVE_DUE_INDEX } from '../table/due-index';
import { keys, TTL_ATTRIBUTE } from '../table/keys';
import { getItem } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import { retryPolicy, type StoreOptions, transactWithRetry } from '../table/transact';
import { gapRequestItem } from './items';
import { sequenceItem, toVersionedSequence } from './sequence-items';

/** A published request is kept this long (its id stays findable for a producer's questions). */
const PUBLISHED_RETENTION_SECONDS = DEFAULT_INBOX_RETENTION_SECONDS;

/** DynamoDB adapter of the sweeper's re-fetch requests (docs/contract.md §18). */
export function createGapRequestStore(options: StoreOptions): GapRequestStore {
  const { client, tableName } = options;
  const retry = retryPolicy(options);
  return {
    async readSource(ref) {
      const item = await getItem(client, tableName, keys.eventSource(ref.accountId, ref.source));
      return item ? toVersionedSequence(item) : undefined;
    },

    async commitRequest(request, event, sequence, republishAt) {
      const outcome = await transactWithRetry(
        client,
        [
          { role: 'request', item: gapRequestItem(tableName, request, event, republishAt) },
          { role: 'sequence', item: sequenceItem(tableName, sequence, request.requestedAt) },
        ],
        retry,
      );
      if (outcome.kind === 'committed') return outcome;
      const { failed } = outcome;
      if (failed.has('sequence') || failed.has('request')) return { kind: 'already_done' };
      throw unexpectedFailure(failed);
    },

    async reschedule(sequence, at) {
      const item = sequenceItem(tableName, sequence, at.toISOString());
      const outcome = await transactWithRetry(client, [{ role: 'sequence', item }], retry);
      if (outcome.kind === 'committed') return outcome;
      if (outcome.failed.has('sequence')) return { kind: 'already_done' };
      throw unexpectedFailure(outcome.failed);
    },

    async markPublished(requestId, at) {
      try {
        await client.send(
          new UpdateItemCommand({
            TableName: tableName,
            Key: marshall(keys.gapRequest(requestId)),
            UpdateExpression: `SET #publishedAt = :at, #expiresAt = :expires ${LEAVE_DUE_INDEX.clause}`,
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#publishedAt)',
            ExpressionAttributeNames: {
              '#publishedAt': 'publishedAt',
              '#expiresAt': TTL_ATTRIBUTE,
              ...LEAVE_DUE_INDEX.names,
            },
            ExpressionAttributeValues: marshall({
              ':at': at.toISOString(),
              ':expires': epochSeconds(at) + PUBLISHED_RETENTION_SECONDS,
            }),
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw storageError(error);
      }
    },
  };
}
