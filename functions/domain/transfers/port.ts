import type { AccountRecord } from '../accounts/model';
import type { SettledWrite } from '../idempotency/idempotent-command';
import type { IdempotencyClaim, ResponseRecorder } from '../idempotency/port';
import type { TransferRecord, TransferWrite } from './model';

/** An account of the transfer whose condition failed, as it stood then (undefined: missing). */
export interface RejectedSide {
  readonly side: 'from' | 'to';
  readonly account: AccountRecord | undefined;
}

/** The rejections a transfer write reports besides a committed or claimed result. */
export type TransferRejection =
  | { readonly kind: 'accounts_rejected'; readonly sides: readonly RejectedSide[] }
  | { readonly kind: 'payment_id_taken' };

export type TransferWriteResult = SettledWrite | TransferRejection;

export interface TransferPort extends ResponseRecorder {
  /** ONE transaction: claim, guarded debit, credit, both legs, the record, the paymentId. */
  transfer(claim: IdempotencyClaim, write: TransferWrite): Promise<TransferWriteResult>;
  getTransfer(transferId: string): Promise<TransferRecord | undefined>;
}
