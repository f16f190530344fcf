import type { LedgerEntry } from '../accounts/model';
import type { HoldSettlement } from '../holds/model';
import type { HoldChanged } from '../holds/port';
import type { LedgerTransactionWrite } from './ledger-transaction';
import { explainLegsRejection } from './legs';
import {
  foreignOwnerOf,
  isOnceAnswer,
  type MovementResult,
  type Once,
  type OnceAnswer,
} from './once';
import type { MovementPort } from './port';
import type { PostingWrite } from './posting';
import { explainPostingRejection } from './rejections';
import { explainReversalRejection, type ReversalWrite } from './reversal';
import { explainTransferRejection, type TransferWrite } from './transfer';

/**
 * One command per movement (docs/contract.md §23), whatever carries it: the transport builds
 * the movement from its input (`newPosting`, `newTransfer`, …) and the `Once` that claims it;
 * the command writes both in ONE transaction and explains a refusal as a DomainError. What the
 * answer means to the caller (a response, a dead letter) stays with the transport.
 */
export class MovementCommands {
  constructor(private readonly port: MovementPort) {}

  async post(once: Once, posting: PostingWrite): Promise<MovementResult> {
    const result = await this.port.post(once, posting);
    if (isOnceAnswer(result)) return result;
    return { kind: 'rejected', error: explainPostingRejection(result, posting.guard) };
  }

  async transfer(once: Once, write: TransferWrite): Promise<MovementResult> {
    const result = await this.port.transfer(once, write);
    if (isOnceAnswer(result)) return result;
    return {
      kind: 'rejected',
      error: explainTransferRejection(result, write, foreignOwnerOf(once)),
    };
  }

  async ledgerTransaction(once: Once, write: LedgerTransactionWrite): Promise<MovementResult> {
    const result = await this.port.ledgerTransaction(once, write);
    if (isOnceAnswer(result)) return result;
    return {
      kind: 'rejected',
      error: explainLegsRejection(result, write.legs, foreignOwnerOf(once)),
    };
  }

  /**
   * `defaulted`: the caller left the amount to default to what is left; when another reversal
   * took part of it meanwhile, the answer is `original_moved` and the caller decides again.
   */
  async reverse(
    once: Once,
    write: ReversalWrite,
    defaulted: boolean,
  ): Promise<MovementResult | { readonly kind: 'original_moved' }> {
    const result = await this.port.reverse(once, write);
    if (isOnceAnswer(result)) return result;
    const error = explainReversalRejection(result, write, defaulted);
    return error === 'moved' ? { kind: 'original_moved' } : { kind: 'rejected', error };
  }

  /**
   * A hold's capture (docs/contract.md §11): the hold as it stood when its guard failed is the
   * refusal; what that means (not found, not active, expired) is the holds' rule to judge.
   */
  async capture(
    once: Once,
    settlement: HoldSettlement,
    entry: LedgerEntry,
  ): Promise<OnceAnswer | HoldChanged> {
    return this.port.capture(once, settlement, entry);
  }
}
