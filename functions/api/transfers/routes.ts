import type { Json } from '../../domain/idempotency/fingerprint';
import type { TransferService } from '../../domain/transfers/service';
import type { RouteHandlers } from '../router';
import type { TRANSFER_ROUTES } from './spec';

/**
 * What a transfer's fingerprint covers: the body as received with the account ids lower-cased,
 * like every other UUID (§4). The body parsed as a strict object, so the cast holds. A batch
 * operation (docs/contract.md §25) is fingerprinted by the same function.
 */
export function transferFingerprinted(
  body: Json,
  input: { readonly fromAccountId: string; readonly toAccountId: string },
): Json {
  const { fromAccountId, toAccountId } = input;
  return { ...(body as Record<string, Json>), fromAccountId, toAccountId };
}

/** Transfers between two of the caller's accounts (docs/contract.md §10). */
export function transferHandlers(service: TransferService): RouteHandlers<typeof TRANSFER_ROUTES> {
  return {
    createTransfer: ({ command }) =>
      service.createTransfer(
        command.ctx,
        command.input,
        transferFingerprinted(command.body, command.input),
      ),
    getTransfer: ({ principal, params }) => service.getTransfer(principal, params.transferId),
  };
}
