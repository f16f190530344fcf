import type { EntryReadService } from '../../domain/accounts/reads';
import type { LedgerService } from '../../domain/accounts/service';
import type { SettingsService } from '../../domain/accounts/settings';
import type { SearchService } from '../../domain/search/service';
import type { RouteHandlers } from '../router';
import { searchAccountsHandler } from '../search/routes';
import type { ACCOUNT_ROUTES } from './spec';

/** What the account routes call. */
export interface AccountServices {
  readonly ledger: LedgerService;
  readonly settings: SettingsService;
  readonly reads: EntryReadService;
  /** `GET /v1/accounts` (docs/contract.md §34). */
  readonly search: SearchService;
}

/** Accounts, transactions and event sources (docs/contract.md §5): the spec parsed the input. */
export function accountHandlers({
  ledger,
  settings,
  reads,
  search,
}: AccountServices): RouteHandlers<typeof ACCOUNT_ROUTES> {
  return {
    createAccount: ({ command }) => ledger.createAccount(command.ctx, command.input, command.body),
    searchAccounts: searchAccountsHandler(search),
    getAccount: ({ principal, params }) => ledger.getAccount(principal, params.accountId),
    postTransaction: ({ params, command }) =>
      ledger.postTransaction(command.ctx, params.accountId, command.input, command.body),
    closeAccount: ({ params, command }) =>
      ledger.closeAccount(command.ctx, params.accountId, command.body),
    changeSettings: ({ params, command }) =>
      settings.changeSettings(command.ctx, params.accountId, command.input, command.body),
    listTransactions: ({ principal, params, query }) =>
      ledger.listTransactions(principal, params.accountId, query.limit, query.cursor),
    getTransaction: ({ principal, params }) =>
      reads.getEntry(principal, params.accountId, params.entryId),
    listPendingCredits: ({ principal, params, query }) =>
      reads.listPendingCredits(principal, params.accountId, query.limit, query.cursor),
    listEventSources: ({ principal, params }) =>
      ledger.listEventSources(principal, params.accountId),
  };
}
