import { withMetadata } from '../accounts/metadata';
import type { LedgerEntry } from '../accounts/model';
import type { Transfer, TransferRecord } from '../accounts/transfer-record';
import type { DomainError } from '../shared/errors';
import { explainLegsRejection, type LegsRejection, legGuard, type MovementLeg } from './legs';
import type { Actor } from './posting';

/** What a caller or a producer asks for (docs/contract.md §10); the command adds id and time. */
export type TransferInput = Omit<
  Transfer,
  'id' | 'createdAt' | 'reversedAmount' | 'effectiveAt'
> & {
  /** As given (docs/contract.md §26); the actor carries it resolved. */
  readonly effectiveAt?: string;
};

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

/**
 * A new transfer from its input, HTTP and events alike: its record (owned by `actor.ownerId`,
 * who must own both accounts) and both legs, each with a new entry id.
 */
export function newTransfer(
  input: TransferInput,
  actor: Actor,
  newId: () => string,
): TransferWrite {
  const transfer: TransferRecord = {
    id: newId(),
    fromAccountId: input.fromAccountId,
    toAccountId: input.toAccountId,
    amount: input.amount,
    currency: input.currency,
    reference: input.reference,
    paymentId: input.paymentId,
    ...withMetadata(input.metadata),
    createdAt: actor.at,
    effectiveAt: actor.effectiveAt,
    ownerId: actor.ownerId,
    origin: actor.origin,
  };
  return {
    transfer,
    legs: transferLegs(transfer, { out: newId(), in: newId() }),
    ownerId: actor.ownerId,
  };
}

/**
 * Why a transfer was refused, judged on the accounts as they stood when the write failed: the
 * rules of every movement (docs/contract.md §16). A destination of another owner is
 * `not_found` over HTTP and `owner_mismatch` for a ledger event (docs/contract.md §10).
 */
export function explainTransferRejection(
  rejected: LegsRejection,
  write: TransferWrite,
  foreignDestination: 'not_found' | 'owner_mismatch' = 'not_found',
): DomainError {
  return explainLegsRejection(rejected, transferMovement(write), foreignDestination);
}
