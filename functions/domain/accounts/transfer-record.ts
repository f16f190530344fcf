import type { EntryOrigin, RecordedDetails } from './model';

/** Transfers between two accounts of one owner (docs/contract.md §10). */
export interface Transfer extends RecordedDetails {
  readonly id: string;
  readonly fromAccountId: string;
  readonly toAccountId: string;
  readonly amount: number;
  readonly currency: string;
}

/** The `TRANSFER#<id>` record: the public view plus its owner and where it came from. */
export interface TransferRecord extends Transfer {
  readonly ownerId: string;
  readonly origin: EntryOrigin;
}

/** The 201 of a new transfer: no owner, no origin (and nothing reversed yet). */
export function transferView(record: TransferRecord): Transfer {
  const { ownerId: _owner, origin: _origin, reversedAmount: _reversed, ...transfer } = record;
  return transfer;
}

/** A read of a transfer: the view with how much of it reversals moved back (§16). */
export const readTransfer = (record: TransferRecord): Transfer => ({
  ...transferView(record),
  reversedAmount: record.reversedAmount ?? 0,
});
