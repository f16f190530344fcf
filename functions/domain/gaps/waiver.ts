import type { EventLedgerPort, InboxClaim } from '../events/port';
import { MOVED, type OptimisticRetryOptions, retryOptimistic } from '../shared/retry';
import { epochSeconds } from '../shared/time';
import { EMPTY_EVENT_SOURCE, sequenceWrite, waiveGaps } from './source-state';

/** A validated `ledger.gap.waived.v1` (docs/contract.md §18): its source's own gaps only. */
export interface GapWaiverInput {
  readonly source: string;
  readonly id: string;
  readonly accountId: string;
  readonly numbers: readonly number[];
  readonly reason: string;
  readonly contentHash: string;
}

export type WaiverOutcome =
  | {
      readonly kind: 'waived';
      readonly waived: readonly number[];
      /** Not open gaps of this source (never missing, arrived, waived before, unlisted). */
      readonly ignored: readonly number[];
    }
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'id_conflict'; readonly detail: string };

export interface WaiverOptions extends OptimisticRetryOptions {
  readonly inboxRetentionSeconds: number;
  readonly gapRefetchAfterSeconds: number;
}

/**
 * A waiver (docs/contract.md §18): the inbox item and, when it closes open gaps of its own
 * source, the sequence item, in ONE transaction. Numbers that are not open gaps are ignored.
 */
export async function applyWaiver(
  port: EventLedgerPort,
  options: WaiverOptions,
  waiver: GapWaiverInput,
  now: Date,
): Promise<WaiverOutcome> {
  const nowSeconds = epochSeconds(now);
  const claim: InboxClaim = {
    source: waiver.source,
    id: waiver.id,
    contentHash: waiver.contentHash,
    nowSeconds,
    expiresAt: nowSeconds + options.inboxRetentionSeconds,
  };
  return retryOptimistic<WaiverOutcome>(
    options,
    async () => {
      const current = await port.getSequence(waiver.accountId, waiver.source);
      const state = current?.state ?? EMPTY_EVENT_SOURCE;
      const result = waiveGaps(state, waiver.numbers, waiver.reason, now.toISOString());
      const write =
        result.waived.length === 0
          ? undefined
          : sequenceWrite(
              waiver,
              current?.version ?? 0,
              result.state,
              options.gapRefetchAfterSeconds,
            );
      const answer = await port.applyWaiver(claim, write);
      switch (answer.kind) {
        case 'committed':
          return { kind: 'waived', waived: result.waived, ignored: result.ignored };
        case 'duplicate':
          return { kind: 'duplicate' };
        case 'id_conflict':
          return {
            kind: 'id_conflict',
            detail: `event ${waiver.id} from ${waiver.source} was already received with other content`,
          };
        case 'sequence_moved':
          return MOVED;
      }
    },
    () => new Error(`sequence of ${waiver.source} kept moving; retry the message later`),
  );
}
