import type { LedgerService } from '../../domain/accounts/service';
import {
  AccountPath,
  CreateAccountBody,
  ListTransactionsQuery,
  PostTransactionBody,
} from '../../schemas/accounts';
import { commandInput, commandResult } from '../commands';
import { principalOf } from '../principal';
import { parseWith } from '../request';
import { json } from '../respond';
import type { Route, RouteRequest } from '../router';

const accountId = (request: RouteRequest) =>
  parseWith(AccountPath, request.pathParameters, 'path').accountId;

/** Accounts, transactions and event sources (docs/contract.md §5). */
export function ledgerRoutes(service: LedgerService, clock: () => Date): Route[] {
  return [
    {
      key: 'POST /v1/accounts',
      handle: async (request) => {
        const { ctx, body } = commandInput(request, clock());
        const input = parseWith(CreateAccountBody, body, 'body');
        return commandResult(await service.createAccount(ctx, input, body));
      },
    },
    {
      key: 'GET /v1/accounts/{accountId}',
      handle: async (request) => {
        const principal = principalOf(request.event);
        return json(200, await service.getAccount(principal, accountId(request)));
      },
    },
    {
      key: 'POST /v1/accounts/{accountId}/transactions',
      handle: async (request) => {
        principalOf(request.event);
        const id = accountId(request);
        const { ctx, body } = commandInput(request, clock());
        const input = parseWith(PostTransactionBody, body, 'body');
        return commandResult(await service.postTransaction(ctx, id, input, body));
      },
    },
    {
      key: 'GET /v1/accounts/{accountId}/transactions',
      handle: async (request) => {
        const principal = principalOf(request.event);
        const id = accountId(request);
        const query = parseWith(
          ListTransactionsQuery,
          request.event.queryStringParameters ?? {},
          'query',
        );
        return json(200, await service.listTransactions(principal, id, query.limit, query.cursor));
      },
    },
    {
      key: 'GET /v1/accounts/{accountId}/event-sources',
      handle: async (request) => {
        const principal = principalOf(request.event);
        return json(200, await service.listEventSources(principal, accountId(request)));
      },
    },
  ];
}
