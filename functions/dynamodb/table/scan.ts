import {
  type AttributeValue,
  type DynamoDBClient,
  ScanCommand,
  type ScanCommandInput,
} from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { storageError } from './sdk-errors';

export interface ScanOutcome {
  /** Items read (before the filter). */
  readonly scanned: number;
  /** False when the Scan stopped at its `limit` before the end of the table. */
  readonly complete: boolean;
}

/**
 * A Scan of the table for operators' reads and backfills, page by page: `onPage` gets each
 * page's (filtered) items before the next page is read. Stops after `limit` items read (when
 * given) or at the end of the table; `signal` stops it between pages.
 */
export async function scanPages(
  client: DynamoDBClient,
  input: Omit<ScanCommandInput, 'ExclusiveStartKey' | 'Limit'>,
  onPage: (items: Record<string, unknown>[]) => Promise<void> | void,
  options: { readonly limit?: number; readonly signal?: AbortSignal | undefined } = {},
): Promise<ScanOutcome> {
  const { limit, signal } = options;
  let scanned = 0;
  let start: Record<string, AttributeValue> | undefined;
  do {
    signal?.throwIfAborted();
    let page: { Items?: Record<string, AttributeValue>[]; ScannedCount?: number };
    try {
      page = await client.send(
        new ScanCommand({
          ...input,
          ...(limit === undefined ? {} : { Limit: Math.min(1000, limit - scanned) }),
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
    } catch (error) {
      throw storageError(error);
    }
    scanned += page.ScannedCount ?? 0;
    start = (page as { LastEvaluatedKey?: typeof start }).LastEvaluatedKey;
    await onPage((page.Items ?? []).map((raw) => unmarshall(raw)));
  } while (start && (limit === undefined || scanned < limit));
  return { scanned, complete: start === undefined };
}
