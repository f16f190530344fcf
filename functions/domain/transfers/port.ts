import type { LegsRejection } from '../accounts/legs';
import type { SettledWrite } from '../idempotency/idempotent-command';
import type { IdempotencyClaim, ResponseRecorder } from '../idempotency/port';
import type { TransferRecord, TransferWrite } from './model';

/** The rejections a transfer write reports: its legs (0 the source, 1 the destination), the paymentId. */
export type TransferRejection = LegsRejection;

export type TransferWriteResult = SettledWrite | TransferRejection;

export interface TransferPort extends ResponseRecorder {
  /** ONE transaction: claim, guarded debit, credit, both legs, the record, the paymentId. */
  transfer(claim: IdempotencyClaim, write: TransferWrite): Promise<TransferWriteResult>;
  getTransfer(transferId: string): Promise<TransferRecord | undefined>;
}
