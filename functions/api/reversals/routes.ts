import type { ReversalService } from '../../domain/reversals/service';
import type { RouteHandlers } from '../router';
import type { REVERSAL_ROUTES } from './spec';

/** Reversals of entries, transfers and ledger transactions (docs/contract.md §16). */
export function reversalHandlers(service: ReversalService): RouteHandlers<typeof REVERSAL_ROUTES> {
  return {
    reverseEntry: ({ params, command }) =>
      service.reverseEntry(command.ctx, params, command.input, command.body),
    reverseTransfer: ({ params, command }) =>
      service.reverseTransfer(command.ctx, params.transferId, command.input, command.body),
    reverseLedgerTransaction: ({ params, command }) =>
      service.reverseLedgerTransaction(
        command.ctx,
        params.ledgerTransactionId,
        command.input,
        command.body,
      ),
  };
}
