import type { LedgerTransactionWrite } from './ledger-transaction';
import { explainLegsRejection } from './legs';
import { foreignOwnerOf, isOnceAnswer, type MovementResult, type Once } from './once';
import type { MovementPort } from './port';
import type { PostingWrite } from './posting';
import { explainPostingRejection } from './rejections';
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
}
