import * as z from 'zod';
import { AccountPath } from '../../schemas/accounts';
import { Balances, BalancesQuery, JournalPage, JournalQuery } from '../../schemas/journal';
import { lazySchema } from '../../schemas/lazy';
import { EffectiveBalance } from '../../schemas/statements';
import { named, type RouteDocs, type RouteTable } from '../spec';

/** The journal and as-of balances (docs/contract.md §15): the owner's, or a journal reader's. */
export const JOURNAL_ROUTES = {
  listJournal: {
    method: 'GET',
    path: '/v1/accounts/{accountId}/journal',
    tag: 'journal',
    params: AccountPath,
    query: JournalQuery,
    response: {
      status: 200,
      body: named('JournalPage', JournalPage),
    },
  },
  getBalances: {
    method: 'GET',
    path: '/v1/accounts/{accountId}/balances',
    tag: 'journal',
    params: AccountPath,
    query: BalancesQuery,
    response: {
      status: 200,
      body: named(
        'Balances',
        lazySchema(() => z.union([Balances, EffectiveBalance])),
      ),
    },
  },
} as const satisfies RouteTable;

/** What the OpenAPI document says of each route of JOURNAL_ROUTES (a function, so that nothing of it is evaluated, or bundled, where only the routes are used: the document's generator calls it). */
export const journalRouteDocs = (): RouteDocs<typeof JOURNAL_ROUTES> => ({
  listJournal: {
    summary: "Read an account's journal",
    description:
      'Every change of balance or available, ascending by sequence (1, 2, 3, … in commit ' +
      'order, no gaps), strongly consistent. The catch-up path of the ledger.journal.v1 ' +
      'events: a consumer that saw sequence N and misses N+1 asks for afterSequence=N.',
    response: 'Records after afterSequence, at most limit',
  },
  getBalances: {
    summary: "An account's balances as of an instant, or by effective time",
    description:
      'With asOf: the values after the last journal record committed at or before asOf ' +
      '(sequence 0 and zeros before the first). 503 with Retry-After while the journal has not ' +
      'caught up with a change the answer depends on; 400 for an instant before the journal of ' +
      'an account older than it. With effectiveAt (docs/contract.md §26): the sum of the ' +
      'posted entries effective at or before it, { accountId, effectiveAt, balance }; 400 ' +
      "before the account's effective history (an account older than effective dates).",
    response: 'asOf: balance, available and the sequence they stand at; effectiveAt: the balance',
  },
});
