import fc from 'fast-check';
import { expect, it } from 'vitest';
import { type Action, planArb, runPlan } from '../support/model-driver';
import { createAccount, ledgerPerFile, postUntilFinal } from './support/ledger';

/**
 * Model-based, under faults: random rounds of credits, debits, transfers, holds, captures,
 * voids, ledger transactions, reversals (racing ones included), closings, concurrent
 * duplicates, later replays and key reuse run against DynamoDB Local through the fault proxy,
 * each round concurrently, on accounts one of which may overdraw; after every round the service
 * must agree with the pure reference model (test/support/ledger-model.ts, driven by
 * test/support/model-driver.ts) on every outcome, every balance and available balance and, at
 * the end, every entry, reversedAmount, status, replayed body and money conservation.
 */
const ledger = ledgerPerFile(42);

const EXACT_COVER: Action[][] = [
  [{ kind: 'new', command: { kind: 'credit', account: 0, amount: 100 } }],
  [
    { kind: 'new', command: { kind: 'debit', account: 0, amount: 100 } },
    { kind: 'new', command: { kind: 'debit', account: 0, amount: 100 } },
    { kind: 'duplicate', of: 0 },
  ],
  [{ kind: 'replay', of: 1 }],
];

/** Racing reversals of one credit, racing a debit that spends what they move back. */
const RACING_REVERSALS: Action[][] = [
  [{ kind: 'new', command: { kind: 'credit', account: 1, amount: 100 } }],
  [
    { kind: 'reverse', of: 0, percent: 40, copies: 3 },
    { kind: 'new', command: { kind: 'debit', account: 1, amount: 200 } },
  ],
  [{ kind: 'reverse', of: 0, percent: undefined, copies: 2 }],
];

it('agrees with the reference model on outcomes, balances, entries and replayed bodies', async () => {
  const { app, verify } = ledger();
  const env = {
    send: async (path: string, key: string, body: unknown) =>
      (await postUntilFinal(app, path, key, body)).result,
    account: (overdraftLimit: number) => createAccount(app, 'EUR', overdraftLimit),
    verify,
    overdraft: [0, 150, 0],
  };
  await fc.assert(
    fc.asyncProperty(planArb(env.overdraft.length), (plan) => runPlan(env, plan)),
    {
      numRuns: 20,
      // Stops between runs, leaving the last run and the end checks room in the 60 s timeout.
      interruptAfterTimeLimit: 40_000,
      markInterruptAsFailure: false,
      // Always run too: the cover boundary (a debit of exactly the balance, raced by a second),
      // and reversals racing each other and a debit on an account that may overdraw.
      examples: [[EXACT_COVER], [RACING_REVERSALS]],
    },
  );
  // Concurrent requests on one account met real contention (the layer cancelled some).
  expect(ledger().contention.stats.conflicts).toBeGreaterThan(0);
});
