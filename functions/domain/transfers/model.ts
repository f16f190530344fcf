import { legGuard, type MovementLeg } from '../accounts/legs';
import { type Metadata, withMetadata } from '../accounts/metadata';
import type { EntryOrigin, LedgerEntry } from '../accounts/model';

/** Transfers between two accounts of one owner (docs/contract.md §10). */
export interface Transfer {
  readonly id: string;
  readonly fromAccountId: string;
  readonly toAccountId: string;
  readonly amount: number;
  readonly currency: string;
  readonly reference?: string;
  readonly paymentId?: string;
  readonly metadata?: Metadata;
  /** Reads: how much reversals moved back so far (docs/contract.md §16). */
  readonly reversedAmount?: number;
  readonly createdAt: string;
  /** When both legs count in the books (docs/contract.md §26): given, or `createdAt`. */
  readonly effectiveAt: string;
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

/**
 * The two legs of a transfer, one in each account's listing. `paymentId` is the source
 * account's (one namespace per account shared with credits and debits); the incoming leg
 * carries none (docs/contract.md §10).
 */
export function transferLegs(
  transfer: TransferRecord,
  entryIds: { readonly out: string; readonly in: string },
): readonly [LedgerEntry, LedgerEntry] {
  const common = {
    amount: transfer.amount,
    currency: transfer.currency,
    reference: transfer.reference,
    ...withMetadata(transfer.metadata),
    transferId: transfer.id,
    origin: transfer.origin,
    createdAt: transfer.createdAt,
    effectiveAt: transfer.effectiveAt,
  };
  return [
    {
      ...common,
      id: entryIds.out,
      accountId: transfer.fromAccountId,
      type: 'transfer_out',
      counterpartyAccountId: transfer.toAccountId,
      paymentId: transfer.paymentId,
    },
    {
      ...common,
      id: entryIds.in,
      accountId: transfer.toAccountId,
      type: 'transfer_in',
      counterpartyAccountId: transfer.fromAccountId,
    },
  ];
}

/** Everything a transfer writes besides its dedup record (a claim or an inbox item). */
export interface TransferWrite {
  readonly transfer: TransferRecord;
  readonly legs: readonly [LedgerEntry, LedgerEntry];
  /** Both accounts must belong to this owner. */
  readonly ownerId: string;
}

/**
 * A transfer is the two-leg movement (docs/contract.md §10, §16): the source debited under
 * guard (owner, currency, open, cover), the destination credited (owner, currency, open, cap).
 */
export function transferMovement(write: TransferWrite): readonly [MovementLeg, MovementLeg] {
  const [out, incoming] = write.legs;
  return [
    { entry: out, guard: legGuard(out, 'debit', write.ownerId) },
    { entry: incoming, guard: legGuard(incoming, 'credit', write.ownerId) },
  ];
}
