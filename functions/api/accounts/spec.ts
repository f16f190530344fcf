import { OPERATION_IDS } from '../../domain/idempotency/operations';
import {
  Account,
  AccountPath,
  CloseAccountBody,
  CreateAccountBody,
  Entry,
  EntryPath,
  EventSourceList,
  ListTransactionsQuery,
  PendingCreditPage,
  PostTransactionBody,
  SettingsBody,
  Transaction,
  TransactionPage,
} from '../../schemas/accounts';
import { AccountSearchPage, AccountSearchQuery } from '../../schemas/search';
import { EVENTUAL, FILTERS } from '../search/spec';
import { MOVEMENT_PROBLEMS, named, type RouteDocs, type RouteTable } from '../spec';

/** Accounts, transactions and event sources (docs/contract.md §5). */
export const ACCOUNT_ROUTES = {
  createAccount: {
    method: 'POST',
    path: '/v1/accounts',
    idempotency: OPERATION_IDS.createAccount,
    tag: 'accounts',
    body: named('CreateAccount', CreateAccountBody),
    response: {
      status: 201,
      body: named('Account', Account),
    },
  },
  /** Search (docs/contract.md §34): the caller's accounts by metadata and name. */
  searchAccounts: {
    method: 'GET',
    path: '/v1/accounts',
    tag: 'accounts',
    query: AccountSearchQuery,
    response: {
      status: 200,
      body: named('AccountSearchPage', AccountSearchPage),
    },
  },
  getAccount: {
    method: 'GET',
    path: '/v1/accounts/{accountId}',
    tag: 'accounts',
    params: AccountPath,
    response: { status: 200, body: named('Account', Account) },
  },
  postTransaction: {
    method: 'POST',
    path: '/v1/accounts/{accountId}/transactions',
    idempotency: OPERATION_IDS.postTransaction,
    tag: 'accounts',
    params: AccountPath,
    body: named('PostTransaction', PostTransactionBody),
    response: {
      status: 201,
      body: named('Transaction', Transaction),
    },
    problems: MOVEMENT_PROBLEMS,
  },
  closeAccount: {
    method: 'POST',
    path: '/v1/accounts/{accountId}/close',
    idempotency: OPERATION_IDS.closeAccount,
    tag: 'accounts',
    params: AccountPath,
    body: named('CloseAccount', CloseAccountBody),
    response: { status: 200, body: named('Account', Account) },
    problems: ['account_not_empty'],
  },
  changeSettings: {
    method: 'POST',
    path: '/v1/accounts/{accountId}/settings',
    idempotency: OPERATION_IDS.changeSettings,
    tag: 'accounts',
    params: AccountPath,
    body: named('AccountSettings', SettingsBody),
    response: { status: 200, body: named('Account', Account) },
    problems: ['account_closed', 'insufficient_funds'],
  },
  listTransactions: {
    method: 'GET',
    path: '/v1/accounts/{accountId}/transactions',
    tag: 'accounts',
    params: AccountPath,
    query: ListTransactionsQuery,
    response: {
      status: 200,
      body: named('TransactionPage', TransactionPage),
    },
  },
  getTransaction: {
    method: 'GET',
    path: '/v1/accounts/{accountId}/transactions/{entryId}',
    tag: 'accounts',
    params: EntryPath,
    response: { status: 200, body: named('Entry', Entry) },
  },
  listPendingCredits: {
    method: 'GET',
    path: '/v1/accounts/{accountId}/pending-credits',
    tag: 'accounts',
    params: AccountPath,
    query: ListTransactionsQuery,
    response: {
      status: 200,
      body: named('PendingCreditPage', PendingCreditPage),
    },
  },
  listEventSources: {
    method: 'GET',
    path: '/v1/accounts/{accountId}/event-sources',
    tag: 'accounts',
    params: AccountPath,
    response: {
      status: 200,
      body: named('EventSourceList', EventSourceList),
    },
  },
} as const satisfies RouteTable;

/** What the OpenAPI document says of each route of ACCOUNT_ROUTES (a function, so that nothing of it is evaluated, or bundled, where only the routes are used: the document's generator calls it). */
export const accountRouteDocs = (): RouteDocs<typeof ACCOUNT_ROUTES> => ({
  createAccount: {
    summary: 'Create an account',
    description:
      'overdraftLimit (default 0) lets debits, transfers, ledger legs, holds and fees take ' +
      'available down to −overdraftLimit.',
    response: 'Account created',
  },
  searchAccounts: {
    summary: 'Find accounts by metadata or name',
    description: `The caller's accounts. ${FILTERS}; name: a case-insensitive prefix. Without a filter: every account. ${EVENTUAL}`,
    response: 'Accounts carrying every pair, newest first',
  },
  getAccount: {
    summary: 'Read an account',
    response: 'The account',
  },
  postTransaction: {
    summary: 'Credit or debit an account',
    response: 'Transaction posted',
  },
  closeAccount: {
    summary: 'Close an account',
    description:
      'Closes an account whose balance and available are both 0: afterwards every effect on it ' +
      'is 409 account_closed, while reads, listings and the journal stay available. Closing ' +
      'a closed account answers it as it is. Moves no money, so it adds no journal record.',
    response: 'Account closed',
  },
  changeSettings: {
    summary: "Change an account's settings",
    description:
      'creditIntake and/or overdraftLimit (at least one). deferred: credits are accepted as ' +
      'pending credits and posted in batches; direct: they change the account at once. A lower ' +
      'overdraftLimit must still cover what the account draws (else 409 insufficient_funds). ' +
      'The same values again answer the account as it is. Moves no money, so it adds no ' +
      'journal record and leaves version alone.',
    response: 'The account',
  },
  listTransactions: {
    summary: "List an account's transactions",
    response: 'Newest first, HTTP and event entries alike',
  },
  getTransaction: {
    summary: 'Read an entry by id',
    description:
      'Posted or pending (a credit into a deferred account not posted yet), with its status.',
    response: 'The entry',
  },
  listPendingCredits: {
    summary: "List an account's pending credits",
    description:
      'Credits accepted into a deferred account and not posted yet, oldest first (acceptedAt, ' +
      'then entry id) across its intake partitions; credits set aside (never postable: a ' +
      'closed period, the balance cap) head the first page with status set_aside and reason. ' +
      'Empty for an account that never deferred.',
    response: 'Oldest first',
  },
  listEventSources: {
    summary: "List an account's event sources",
    description:
      'Sequence tracking per event source: the highest sequence seen and the missing numbers ' +
      '(at most 1,000, the lowest, in gaps; the rest as gapRanges, and gapsTruncated while ' +
      'there are any).',
    response: 'Event sources of this account',
  },
});
