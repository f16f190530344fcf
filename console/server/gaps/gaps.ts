import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DEFAULT_BACKDATE_LIMIT_DAYS } from '../../../functions/contract/effective-time';
import {
  EVENT_SOURCE_ITEM_KIND,
  GAP_OVERDUE_FACTOR,
  GAP_WAIVED_EVENT_TYPE,
} from '../../../functions/contract/gaps';
import { EventService } from '../../../functions/domain/events/service';
import { toVersionedSequence } from '../../../functions/dynamodb/events/items';
import { createEventStore } from '../../../functions/dynamodb/events/store';
import { createMovementStore } from '../../../functions/dynamodb/movements/store';
import { createDueStore } from '../../../functions/dynamodb/sweeper/store';
import { DUE_SHARD_COUNT } from '../../../functions/dynamodb/table/due-index';
import { parseLedgerEvent } from '../../../functions/handlers/events/parse';
import type { GapsPage, OverdueGapRow, WaiveRequest, WaiveResult } from '../../shared/api';
import { gapRows } from '../accounts/rows';

export interface GapsOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly gapRefetchAfterSeconds: number;
  readonly inboxRetentionSeconds: number;
  readonly clock: () => Date;
}

/** Due-index items one page reads per shard at most. */
const PER_SHARD = 1000;

/** A waiver the console refuses before anything is written; the words say why. */
export class WaiverRefused extends Error {}

/**
 * The overdue-gaps page and the waive action. A waiver is the producer's own
 * `ledger.gap.waived.v1` (docs/contract.md §18), built here and parsed by the events
 * consumer's parser, then applied by the SAME domain command (`EventService.waive`): the inbox
 * item and the sequence item in one transaction. Its reason names the operator.
 */
export function createGaps(options: GapsOptions) {
  const { client, tableName, clock } = options;
  const due = createDueStore({ client, tableName });
  const table = { client, tableName };
  const events = new EventService(createEventStore(table), createMovementStore(table), {
    inboxRetentionSeconds: options.inboxRetentionSeconds,
    gapRefetchAfterSeconds: options.gapRefetchAfterSeconds,
    // Only waivers go through it here: no movement, so no effectiveAt to judge.
    backdateLimitDays: DEFAULT_BACKDATE_LIMIT_DAYS,
    newId: randomUUID,
  });

  return {
    /** Every source with open gaps (the due index holds exactly those), overdue ones first. */
    async list(): Promise<GapsPage> {
      const now = clock();
      const sources: OverdueGapRow[] = [];
      for (let shard = 0; shard < DUE_SHARD_COUNT; shard++) {
        let after: string | undefined;
        do {
          const page = await due.listDue(shard, Number.MAX_SAFE_INTEGER, PER_SHARD, after);
          for (const item of page.items) {
            if (item.kind !== EVENT_SOURCE_ITEM_KIND) continue;
            const attributes = item.attributes as Record<string, unknown>;
            const { state } = toVersionedSequence(attributes);
            const gaps = gapRows(state, now, options.gapRefetchAfterSeconds);
            if (gaps.length === 0) continue;
            sources.push({
              accountId: String(attributes.accountId),
              source: String(attributes.source),
              gaps,
            });
          }
          after = page.next;
        } while (after !== undefined);
      }
      const overdue = (row: OverdueGapRow) => row.gaps.filter((g) => g.overdue).length;
      sources.sort((a, b) => overdue(b) - overdue(a) || a.accountId.localeCompare(b.accountId));
      return {
        sources,
        overdueAfterSeconds: GAP_OVERDUE_FACTOR * options.gapRefetchAfterSeconds,
      };
    },

    async waive(request: WaiveRequest, operator: string): Promise<WaiveResult> {
      const event = {
        specversion: '1.0',
        type: GAP_WAIVED_EVENT_TYPE,
        source: request.source,
        id: `console-waiver-${randomUUID()}`,
        subject: request.accountId,
        time: clock().toISOString(),
        datacontenttype: 'application/json',
        data: {
          numbers: [...request.numbers],
          reason: `${request.reason.trim()} (waived in the operator console by ${operator})`,
        },
      };
      const parsed = parseLedgerEvent(JSON.stringify(event));
      if (!parsed.ok) throw new WaiverRefused(`${parsed.code}: ${parsed.detail}`);
      if (!('waiver' in parsed)) throw new WaiverRefused('not a waiver');
      const outcome = await events.waive(parsed.waiver, clock());
      switch (outcome.kind) {
        case 'waived':
          return { outcome: 'waived', waived: outcome.waived, ignored: outcome.ignored };
        case 'duplicate':
          return { outcome: 'duplicate', waived: [], ignored: [] };
        case 'id_conflict':
          return { outcome: 'id_conflict', waived: [], ignored: [] };
      }
    },
  };
}

export type Gaps = ReturnType<typeof createGaps>;
