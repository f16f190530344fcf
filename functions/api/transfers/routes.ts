import type { Json } from '../../domain/idempotency/fingerprint';
import type { TransferService } from '../../domain/transfers/service';
import { CreateTransferBody, TransferPath } from '../../schemas/transfers';
import { commandInput, commandResult } from '../commands';
import { principalOf } from '../principal';
import { parseWith } from '../request';
import { json } from '../respond';
import type { Route } from '../router';

/** Transfers between two of the caller's accounts (docs/contract.md §10). */
export function transferRoutes(service: TransferService, clock: () => Date): Route[] {
  return [
    {
      key: 'POST /v1/transfers',
      handle: async (request) => {
        const { ctx, body } = commandInput(request, clock());
        const input = parseWith(CreateTransferBody, body, 'body');
        // The fingerprint sees the account ids lower-cased, like every other UUID (§4); the body
        // parsed as a strict object above, so the cast holds.
        const { fromAccountId, toAccountId } = input;
        const fingerprinted = { ...(body as Record<string, Json>), fromAccountId, toAccountId };
        return commandResult(await service.createTransfer(ctx, input, fingerprinted));
      },
    },
    {
      key: 'GET /v1/transfers/{transferId}',
      handle: async (request) => {
        const principal = principalOf(request.event);
        const { transferId } = parseWith(TransferPath, request.pathParameters, 'path');
        return json(200, await service.getTransfer(principal, transferId));
      },
    },
  ];
}
