import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawPlan, type Plan } from '../../soak/plan';
import { type Session, startSession } from '../../soak/session';
import { dynamoEndpoint } from '../support/dynamo-lease';

/** Room on a loaded machine; the run itself takes 25–40 s on 2 busy cores. */
const TIMEOUT_MS = 120_000;

/**
 * The soak (docs/reliability.md, CONTRACT §31 "Model-based test") inside `npm test`: one seeded
 * round against `npm start`'s composition with every feature and every transport, answers lost
 * by the proxy, the contention layer on, the stack SIGKILLed and restarted and DynamoDB cut off
 * mid-run, held against the sequential model, and every journal through the project's verifier.
 * Sized by operations, not time, so it is the same run on any machine (≤ 45 s on a loaded 2-core
 * machine, CONTRACT §36). Then the same checker on a planted defect: a credit whose answer was
 * lost is applied again on its retry.
 *
 * The seed draws every kind of operation, both batch modes, events with duplicates and gaps,
 * back-dated entries, a short hold, and two USD/EUR exchanges: one whose customer is funded
 * (applied), one whose customer has no dollars yet (refused `insufficient_funds`).
 */
const SEED = 25093;
const OPERATIONS = 30;
const lines: string[] = [];
let session: Session;

beforeAll(async () => {
  session = await startSession({
    seed: SEED,
    concurrency: 6,
    lossRate: 0.1,
    dynamoEndpoint: dynamoEndpoint(),
    log: (line) => {
      lines.push(line);
      if (process.env.SOAK_VERBOSE) console.log(line);
    },
  });
});
afterAll(async () => {
  await session?.close();
});

describe('soak', () => {
  it(`seed ${SEED}: ${OPERATIONS} operations under faults match the model`, async () => {
    const before = session.proxy.stats.lost;
    const plan = drawPlan({ seed: SEED, operations: OPERATIONS });
    const result = await session.round(plan, { faults: true, shrinkBudget: 0 });
    expect(result.findings, `${lines.join('\n')}\n${session.output().slice(-5_000)}`).toEqual([]);
    expect(session.counters.operations).toBe(OPERATIONS);
    // Every journal went through the project's verifier too, and an exchange was applied.
    expect(session.counters.verified).toBe(plan.accounts.length);
    expect(session.counters.exchanges).toBeGreaterThan(0);
    expect(session.counters.kills).toBe(1);
    expect(session.counters.outages).toBe(1);
    expect(session.proxy.stats.lost - before).toBeGreaterThan(0);
    expect(Object.keys(session.counters.byKind).sort()).toEqual(
      [
        'batch',
        'capture',
        'close',
        'credit',
        'debit',
        'events',
        'hold',
        'ledger',
        'period',
        'reverse',
        'transfer',
        'void',
      ].sort(),
    );
  });

  it(
    'fails on a planted defect (a lost credit applied again on retry) and shrinks to it',
    async () => {
      const account = {
        currency: 'EUR',
        deferred: false,
        overdraft: 0,
        events: false,
        closable: false,
      } as const;
      const plan: Plan = {
        seed: SEED,
        accounts: [account, account],
        monitors: [],
        operations: Array.from({ length: 12 }, (_, i) => ({
          kind: 'credit' as const,
          account: i % 2,
          amount: 10 + i,
        })),
      };
      session.proxy.plantDoubleCredit(true);
      session.proxy.lossRate(0.3);
      try {
        const result = await session.round(plan, { faults: false, shrinkBudget: 8 });
        expect(result.findings.map((f) => f.check)).toContain('applied_once');
        expect(session.proxy.stats.planted).toBeGreaterThan(0);
        expect(result.shortest?.length).toBe(1);
      } finally {
        session.proxy.lossRate(0.1);
        session.proxy.plantDoubleCredit(false);
      }
    },
    TIMEOUT_MS,
  );
});
