import { OPERATION_IDS } from '../../domain/idempotency/operations';
import {
  CreateLedgerTransactionBody,
  LedgerTransaction,
  LedgerTransactionPath,
} from '../../schemas/ledger-transactions';
import { named, type RouteDocs, type RouteTable } from '../spec';

const LEDGER_TRANSACTION = named('LedgerTransaction', LedgerTransaction);

/** N-leg ledger transactions between the caller's accounts (docs/contract.md §16). */
export const LEDGER_TRANSACTION_ROUTES = {
  createLedgerTransaction: {
    method: 'POST',
    path: '/v1/ledger-transactions',
    idempotency: OPERATION_IDS.createLedgerTransaction,
    tag: 'ledger-transactions',
    body: named('CreateLedgerTransaction', CreateLedgerTransactionBody),
    response: { status: 201, body: LEDGER_TRANSACTION },
    problems: [
      'not_found',
      'legs_unbalanced',
      'currency_mismatch',
      'account_closed',
      'period_closed',
      'insufficient_funds',
      'balance_limit_exceeded',
      'payment_id_conflict',
    ],
  },
  getLedgerTransaction: {
    method: 'GET',
    path: '/v1/ledger-transactions/{ledgerTransactionId}',
    tag: 'ledger-transactions',
    params: LedgerTransactionPath,
    response: {
      status: 200,
      body: LEDGER_TRANSACTION,
    },
  },
} as const satisfies RouteTable;

/** What the OpenAPI document says of each route of LEDGER_TRANSACTION_ROUTES (a function, so that nothing of it is evaluated, or bundled, where only the routes are used: the document's generator calls it). */
export const ledgerTransactionRouteDocs = (): RouteDocs<typeof LEDGER_TRANSACTION_ROUTES> => ({
  createLedgerTransaction: {
    summary: 'Move money between 2–25 accounts at once',
    description:
      'Debits and credits 2–25 of the caller’s accounts in one currency in ONE transaction: every ' +
      "leg's guarded account change, one entry per leg (ledger_debit / ledger_credit with " +
      'ledgerTransactionId), the record and the paymentId of the first debited account. Debits ' +
      'and credits must sum alike (422 legs_unbalanced, not recorded); insufficient_funds names ' +
      'the first short account in its detail.',
    response: 'Ledger transaction made',
  },
  getLedgerTransaction: {
    summary: 'Read a ledger transaction',
    response: 'The ledger transaction, with how much reversals moved back (reversedAmount)',
  },
});
