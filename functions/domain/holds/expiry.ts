import { HOLD_ITEM_KIND } from '../../contract/names';
import { expirySettlement, type HoldRecord } from '../accounts/hold-record';
import type { SweepHandler } from '../sweeper/port';
import type { HoldReleasePort } from './port';

/**
 * The sweeper's handler for holds (docs/contract.md §11): an active hold past its expiry becomes
 * `expired` and its amount returns to `available`. A hold already captured, voided or released
 * by another sweeper fails the write's condition: already done.
 */
export function holdExpiryHandler(
  port: HoldReleasePort,
  decode: (attributes: Readonly<Record<string, unknown>>) => HoldRecord,
): SweepHandler {
  return {
    kind: HOLD_ITEM_KIND,
    async settle(item, now) {
      const result = await port.releaseHold(expirySettlement(decode(item.attributes), now));
      return result.kind === 'committed' ? 'settled' : 'already_done';
    },
  };
}
