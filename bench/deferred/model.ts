/**
 * The AWS model of one deferred account beside one direct account (docs/contract.md §24), on
 * the one-item model of bench/hot/model.ts: a direct credit is one transaction on the account
 * item; a deferred credit is one transaction on one of `shards` gates, and the folder's posting
 * is one transaction on the account item per MAX_CREDITS_PER_POSTING credits. So
 *
 *   direct   ≈ 1 × tps(account item)
 *   deferred ≈ min(shards × tps(gate), 30 × tps(account item after a posting of 30))
 */

import { DEFAULT_INTAKE_SHARDS } from '../../functions/domain/accounts/model';
import { MAX_CREDITS_PER_POSTING } from '../../functions/domain/accounts/pending-credits';
import { boundOf, modelEventsPerSecond } from '../hot/model';

/** Billed sizes (bytes) of the items each side holds, as the bench read them. */
export interface DeferredItemSizes {
  /** A direct account item after a credit. */
  readonly directAccount: number;
  /** A gate after intakes. */
  readonly gate: number;
  /** A deferred account item after a posting of MAX_CREDITS_PER_POSTING credits. */
  readonly postedAccount: number;
}

export interface DeferredModelRow {
  readonly latencyMs: number;
  readonly direct: number;
  readonly intake: number;
  readonly posting: number;
  readonly deferred: number;
  readonly bound: string;
}

export function deferredModel(
  sizes: DeferredItemSizes,
  shards = DEFAULT_INTAKE_SHARDS,
): DeferredModelRow[] {
  return [10, 20, 40].map((latencyMs) => {
    const direct = modelEventsPerSecond({
      recordsPerTransaction: 1,
      latencyMs,
      itemBytes: sizes.directAccount,
    });
    const gate = { recordsPerTransaction: 1, latencyMs, itemBytes: sizes.gate };
    const intake = shards * modelEventsPerSecond(gate);
    const account = {
      recordsPerTransaction: MAX_CREDITS_PER_POSTING,
      latencyMs,
      itemBytes: sizes.postedAccount,
    };
    const posting = modelEventsPerSecond(account);
    const deferred = Math.min(intake, posting);
    const bound =
      intake <= posting ? `intake (gates: ${boundOf(gate)})` : `posting (${boundOf(account)})`;
    return { latencyMs, direct, intake, posting, deferred, bound };
  });
}

export function deferredModelLines(sizes: DeferredItemSizes): string[] {
  return [
    `The same on AWS, modelled (bench/deferred/model.ts; a transaction holds its items for the`,
    `latency, an item takes 1,000 write units a second, 2 per KB transactional): a direct account`,
    `item of ${sizes.directAccount} B, a gate of ${sizes.gate} B over ${DEFAULT_INTAKE_SHARDS} shards, a deferred account item of`,
    `${sizes.postedAccount} B after a posting of ${MAX_CREDITS_PER_POSTING} (sizes read by this run).`,
    '',
    '| transaction latency | direct credits/s | intake ceiling | posting ceiling | deferred credits/s | ratio | bound |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...deferredModel(sizes).map(
      (r) =>
        `| ${r.latencyMs} ms | ${r.direct.toFixed(0)} | ${r.intake.toFixed(0)} | ${r.posting.toFixed(0)} | ` +
        `${r.deferred.toFixed(0)} | ${(r.deferred / r.direct).toFixed(1)}× | ${r.bound} |`,
    ),
  ];
}
