import { OPERATION_IDS } from '../../domain/idempotency/operations';
import { CreateTransferBody, Transfer, TransferPath } from '../../schemas/transfers';
import { MOVEMENT_PROBLEMS, named, type RouteDocs, type RouteTable } from '../spec';

/** Transfers between two of the caller's accounts (docs/contract.md §10). */
export const TRANSFER_ROUTES = {
  createTransfer: {
    method: 'POST',
    path: '/v1/transfers',
    idempotency: OPERATION_IDS.createTransfer,
    tag: 'transfers',
    body: named('CreateTransfer', CreateTransferBody),
    response: {
      status: 201,
      body: named('Transfer', Transfer),
    },
    problems: ['not_found', ...MOVEMENT_PROBLEMS],
  },
  getTransfer: {
    method: 'GET',
    path: '/v1/transfers/{transferId}',
    tag: 'transfers',
    params: TransferPath,
    response: {
      status: 200,
      body: named('Transfer', Transfer),
    },
  },
} as const satisfies RouteTable;

/** What the OpenAPI document says of each route of TRANSFER_ROUTES (a function, so that nothing of it is evaluated, or bundled, where only the routes are used: the document's generator calls it). */
export const transferRouteDocs = (): RouteDocs<typeof TRANSFER_ROUTES> => ({
  createTransfer: {
    summary: 'Transfer between two accounts',
    description:
      'Moves money between two accounts of the caller in ONE transaction: the debit of the ' +
      "source (guarded on its available balance), the credit of the destination, one entry in each account's listing " +
      '(transfer_out / transfer_in) and the transfer record.',
    response: 'Transfer made',
  },
  getTransfer: {
    summary: 'Read a transfer',
    response: 'The transfer, with how much reversals moved back (reversedAmount)',
  },
});
