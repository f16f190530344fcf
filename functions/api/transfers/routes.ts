import type { Json } from '../../domain/idempotency/fingerprint';
import type { TransferService } from '../../domain/transfers/service';
import type { RouteHandlers } from '../router';
import type { TRANSFER_ROUTES } from './spec';

/** Transfers between two of the caller's accounts (docs/contract.md §10). */
export function transferHandlers(service: TransferService): RouteHandlers<typeof TRANSFER_ROUTES> {
  return {
    createTransfer: ({ command }) => {
      // The fingerprint sees the account ids lower-cased, like every other UUID (§4); the body
      // parsed as a strict object, so the cast holds.
      const { fromAccountId, toAccountId } = command.input;
      const fingerprinted = {
        ...(command.body as Record<string, Json>),
        fromAccountId,
        toAccountId,
      };
      return service.createTransfer(command.ctx, command.input, fingerprinted);
    },
    getTransfer: ({ principal, params }) => service.getTransfer(principal, params.transferId),
  };
}
