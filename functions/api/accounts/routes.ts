import type { LedgerService } from '../../domain/accounts/service';
import type { RouteHandlers } from '../router';
import type { ACCOUNT_ROUTES } from './spec';

/** Accounts, transactions and event sources (docs/contract.md §5): the spec parsed the input. */
export function accountHandlers(service: LedgerService): RouteHandlers<typeof ACCOUNT_ROUTES> {
  return {
    createAccount: ({ command }) => service.createAccount(command.ctx, command.input, command.body),
    getAccount: ({ principal, params }) => service.getAccount(principal, params.accountId),
    postTransaction: ({ params, command }) =>
      service.postTransaction(command.ctx, params.accountId, command.input, command.body),
    closeAccount: ({ params, command }) =>
      service.closeAccount(command.ctx, params.accountId, command.body),
    listTransactions: ({ principal, params, query }) =>
      service.listTransactions(principal, params.accountId, query.limit, query.cursor),
    listEventSources: ({ principal, params }) =>
      service.listEventSources(principal, params.accountId),
  };
}
