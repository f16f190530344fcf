import type { HoldChanged, HoldSettlement } from '../accounts/hold-record';
import type { LedgerEntry } from '../accounts/model';
import type { IntakeRoutes } from './intake';
import type { LedgerTransactionWrite } from './ledger-transaction';
import type { LegsRejection } from './legs';
import type { MovementWrite, Once } from './once';
import type { PostingWrite } from './posting';
import type { PostingRejection } from './rejections';
import type { ReversalRejection, ReversalWrite } from './reversal';
import type { TransferWrite } from './transfer';

/**
 * The one store method of each movement (docs/contract.md §23): ONE TransactWriteItems of the
 * claim item `once` names and the movement's items, its cancellation read back as the claim's
 * answer or the movement's refusal. HTTP and ledger events call the same methods. `intake`
 * names the deferred accounts whose credit-direction legs write a pending credit behind the
 * account's gate instead of changing the account (docs/contract.md §24).
 */
export interface MovementPort {
  /** A credit or debit: the guarded account change, the entry, its pointer, the paymentId. */
  post(
    once: Once,
    posting: PostingWrite,
    intake?: IntakeRoutes,
  ): Promise<MovementWrite<PostingRejection>>;
  /** Both accounts' guarded changes, both legs, the record, the source's paymentId. */
  transfer(
    once: Once,
    write: TransferWrite,
    intake?: IntakeRoutes,
  ): Promise<MovementWrite<LegsRejection>>;
  /** Every leg's guarded change, entry and pointer, the record, the first debited's paymentId. */
  ledgerTransaction(
    once: Once,
    write: LedgerTransactionWrite,
    intake?: IntakeRoutes,
  ): Promise<MovementWrite<LegsRejection>>;
  /** The original's guarded `reversedAmount` and every leg moved back. */
  reverse(
    once: Once,
    write: ReversalWrite,
    intake?: IntakeRoutes,
  ): Promise<MovementWrite<ReversalRejection>>;
  /** A hold's capture: the hold's conditional settle, its account's change, the capture entry. */
  capture(
    once: Once,
    settlement: HoldSettlement,
    entry: LedgerEntry,
  ): Promise<MovementWrite<HoldChanged>>;
}
