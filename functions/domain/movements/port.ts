import type { ReversalRejection, ReversalWrite } from '../reversals/port';
import type { LedgerTransactionWrite } from './ledger-transaction';
import type { LegsRejection } from './legs';
import type { MovementWrite, Once } from './once';
import type { PostingWrite } from './posting';
import type { PostingRejection } from './rejections';
import type { TransferWrite } from './transfer';

/**
 * The one store method of each movement (docs/contract.md §23): ONE TransactWriteItems of the
 * claim item `once` names and the movement's items, its cancellation read back as the claim's
 * answer or the movement's refusal. HTTP and ledger events call the same methods.
 */
export interface MovementPort {
  /** A credit or debit: the guarded account change, the entry, its pointer, the paymentId. */
  post(once: Once, posting: PostingWrite): Promise<MovementWrite<PostingRejection>>;
  /** Both accounts' guarded changes, both legs, the record, the source's paymentId. */
  transfer(once: Once, write: TransferWrite): Promise<MovementWrite<LegsRejection>>;
  /** Every leg's guarded change, entry and pointer, the record, the first debited's paymentId. */
  ledgerTransaction(
    once: Once,
    write: LedgerTransactionWrite,
  ): Promise<MovementWrite<LegsRejection>>;
  /** The original's guarded `reversedAmount` and every leg moved back. */
  reverse(once: Once, write: ReversalWrite): Promise<MovementWrite<ReversalRejection>>;
}
