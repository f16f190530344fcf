import type { HoldReleasePort, HoldReleaseResult } from '../core/hold-expiry';
import type { HoldSettlement } from '../core/holds';
import { settlementItems, toHoldRecord } from './hold-items';
import { retryPolicy, type StoreOptions, transactWithRetry } from './transact';

/** The DynamoDB adapter for holds. */
export function createHoldStore(options: StoreOptions): HoldReleasePort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);

  return {
    async releaseHold(settlement: HoldSettlement): Promise<HoldReleaseResult> {
      const items = settlementItems(tableName, settlement);
      const outcome = await transactWithRetry(
        client,
        [
          // Decisive: once the hold is no longer active, contention elsewhere changes nothing.
          { role: 'hold', item: items.hold, decisive: true },
          { role: 'ref', item: items.ref },
          { role: 'account', item: items.account },
        ],
        retry,
      );
      if (outcome.kind === 'committed') return outcome;
      if (!outcome.failed.has('hold')) {
        throw new Error(`releasing a hold failed on ${[...outcome.failed.keys()].join(', ')}`);
      }
      const old = outcome.failed.get('hold');
      return { kind: 'hold_changed', hold: old ? toHoldRecord(old) : undefined };
    },
  };
}
