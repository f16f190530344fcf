import { marshall } from '@aws-sdk/util-dynamodb';
import { EVENT_SOURCE_ITEM_KIND } from '../../contract/gaps';
import { sequenceWrite } from '../../domain/gaps/sequences';
import { DUE_INDEX } from '../table/due-index';
import { scanPages } from '../table/scan';
import { retryPolicy, type StoreOptions, transactWithRetry } from '../table/transact';
import { toSourceRef } from './items';
import { sequenceItem, toVersionedSequence } from './sequence-items';

export interface BackfillPage {
  /** Sequence items with open gaps read on this page. */
  readonly seen: number;
  /** Put into the due index now. */
  readonly indexed: number;
  /** Moved meanwhile: an event write rewrote (and indexed) them. */
  readonly moved: number;
}

/**
 * Puts the gaps recorded before gaps had details into the due index (docs/contract.md §18,
 * docs/operations.md "Gap re-fetch requests"): every ledger-event source item with gaps and no
 * `dueAt` is rewritten by the one sequence writer, conditional on the version read, its gaps
 * opened at the item's last write. Idempotent: a second run finds nothing to do. A scan, page by
 * page (operators run it once after the upgrade).
 */
export async function backfillGapIndex(
  options: StoreOptions,
  refetchAfterSeconds: number,
  onPage: (page: BackfillPage) => void,
  signal?: AbortSignal,
): Promise<BackfillPage> {
  const { client, tableName } = options;
  const retry = retryPolicy(options);
  const total = { seen: 0, indexed: 0, moved: 0 };
  await scanPages(
    client,
    {
      TableName: tableName,
      FilterExpression: '#kind = :kind AND size(#gaps) > :zero AND attribute_not_exists(#dueAt)',
      ExpressionAttributeNames: {
        '#kind': 'kind',
        '#gaps': 'gaps',
        '#dueAt': DUE_INDEX.dueAtAttribute,
      },
      ExpressionAttributeValues: marshall({ ':kind': EVENT_SOURCE_ITEM_KIND, ':zero': 0 }),
      ConsistentRead: true,
    },
    async (items) => {
      const counts = { seen: 0, indexed: 0, moved: 0 };
      for (const item of items) {
        const { state, version } = toVersionedSequence(item);
        const ref = toSourceRef(item);
        const write = sequenceWrite(ref, version, state, refetchAfterSeconds);
        const at = typeof item.updatedAt === 'string' ? item.updatedAt : new Date().toISOString();
        counts.seen++;
        const outcome = await transactWithRetry(
          client,
          [{ role: 'sequence', item: sequenceItem(tableName, write, at) }],
          retry,
        );
        if (outcome.kind === 'committed') counts.indexed++;
        else counts.moved++;
      }
      total.seen += counts.seen;
      total.indexed += counts.indexed;
      total.moved += counts.moved;
      onPage(counts);
    },
    { signal },
  );
  return total;
}
