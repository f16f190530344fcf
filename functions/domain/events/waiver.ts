import { sequenceWrite } from '../gaps/sequences';
import { EMPTY_EVENT_SOURCE, waiveGaps } from '../gaps/source-state';
import { type OptimisticRetryOptions, retryOptimistic } from '../shared/retry';
import { inboxClaimOf, inboxOutcome, type SeenOutcome } from './model';
import type { EventLedgerPort } from './port';

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
  /** A waiver moves no money, so the inbox never holds a refusal of one. */
  | Exclude<SeenOutcome, { readonly kind: 'refused_before' }>;

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
  const claim = inboxClaimOf(waiver, now, options.inboxRetentionSeconds);
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
      const waived = { kind: 'waived' as const, waived: result.waived, ignored: result.ignored };
      return inboxOutcome(answer, waived);
    },
    () => new Error(`sequence of ${waiver.source} kept moving; retry the message later`),
  );
}
