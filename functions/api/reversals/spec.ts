import { OPERATION_IDS } from '../../domain/idempotency/operations';
import { LedgerTransactionPath } from '../../schemas/ledger-transactions';
import {
  EntryPath,
  LedgerTransactionReversal,
  Reversal,
  ReverseBody,
  ReverseWholeBody,
} from '../../schemas/reversals';
import { TransferPath } from '../../schemas/transfers';
import { named, type RouteDocs, type RouteTable } from '../spec';

const REVERSAL = named('Reversal', Reversal);
const REVERSE = named('Reverse', ReverseBody);

/** What every reversal may answer besides the checks of every command (docs/contract.md §16). */
const REVERSAL_PROBLEMS = [
  'not_reversible',
  'reversal_exceeds_original',
  'account_closed',
  'insufficient_funds',
  'balance_limit_exceeded',
] as const;

const ONE_TRANSACTION =
  'One read of the original, then ONE transaction: the claim, the original’s reversedAmount ' +
  'guarded so that reversals never add up to more than it moved, and an entry of type reversal ' +
  '(with reversalOf and direction) in each account the money moves back to or from.';

/** Reversals of entries, transfers and ledger transactions (docs/contract.md §16). */
export const REVERSAL_ROUTES = {
  reverseEntry: {
    method: 'POST',
    path: '/v1/accounts/{accountId}/transactions/{entryId}/reversals',
    idempotency: OPERATION_IDS.reverseEntry,
    tag: 'reversals',
    params: EntryPath,
    body: REVERSE,
    response: { status: 201, body: REVERSAL },
    // A credit still pending in a deferred account (§24): 409 with Retry-After, not recorded.
    problems: [...REVERSAL_PROBLEMS, 'credit_pending'],
  },
  reverseTransfer: {
    method: 'POST',
    path: '/v1/transfers/{transferId}/reversals',
    idempotency: OPERATION_IDS.reverseTransfer,
    tag: 'reversals',
    params: TransferPath,
    body: REVERSE,
    response: { status: 201, body: REVERSAL },
    problems: REVERSAL_PROBLEMS,
  },
  reverseLedgerTransaction: {
    method: 'POST',
    path: '/v1/ledger-transactions/{ledgerTransactionId}/reversals',
    idempotency: OPERATION_IDS.reverseLedgerTransaction,
    tag: 'reversals',
    params: LedgerTransactionPath,
    body: named('ReverseWhole', ReverseWholeBody),
    response: {
      status: 201,
      body: named('LedgerTransactionReversal', LedgerTransactionReversal),
    },
    problems: REVERSAL_PROBLEMS,
  },
} as const satisfies RouteTable;

/** What the OpenAPI document says of each route of REVERSAL_ROUTES (a function, so that nothing of it is evaluated, or bundled, where only the routes are used: the document's generator calls it). */
export const reversalRouteDocs = (): RouteDocs<typeof REVERSAL_ROUTES> => ({
  reverseEntry: {
    summary: 'Reverse a credit, a debit or a capture',
    description: `Moves amount (default: what is left) of a credit, debit (export fees included) or capture back. ${ONE_TRANSACTION}`,
    response: 'Reversed',
  },
  reverseTransfer: {
    summary: 'Reverse a transfer, in part or whole',
    description: `Moves amount (default: what is left) back from the destination to the source. ${ONE_TRANSACTION}`,
    response: 'Reversed',
  },
  reverseLedgerTransaction: {
    summary: 'Reverse a ledger transaction (whole)',
    description: `Moves every leg back. ${ONE_TRANSACTION}`,
    response: 'Reversed: amount is the sum of its debit legs, up to 25 × 10^12',
  },
});
