import type { TransferRecord } from '../accounts/transfer-record';
import type { ResponseRecorder } from '../idempotency/port';

/**
 * The reads of transfers; a transfer itself is written by its movement command
 * (`domain/movements/`, docs/contract.md §23).
 */
export interface TransferPort extends ResponseRecorder {
  getTransfer(transferId: string): Promise<TransferRecord | undefined>;
}
