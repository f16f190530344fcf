import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { HttpResult } from '../../../functions/api/types';
import { ledgerEvent, sqsEvent, sqsRecord } from '../../../kit/ledger-events';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/**
 * One write path (docs/contract.md §25): the same movements — credits, debits, a transfer,
 * a ledger transaction, then reversals — into direct and deferred accounts give the same
 * outcomes, codes and balances through every transport: single HTTP requests, an independent
 * batch, atomic batches, SQS ledger events. Black box at each transport's boundary: the HTTP
 * function and the events consumer as composed, on DynamoDB Local.
 */

const fixture = useLedgerFixture();
const { api, consume, deadLetters } = fixture;

/** D: direct, 100. F: deferred, 100 posted, its period closed through yesterday. E: empty. */
type Role = 'D' | 'F' | 'E';
type Accounts = Record<Role, string>;
type Step =
  | { op: 'credit' | 'debit'; on: Role; amount: number; backdated?: true }
  | { op: 'transfer'; from: Role; to: Role; amount: number }
  | { op: 'ledger_transaction'; legs: [Role, 'debit' | 'credit', number][] };

const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();

const STEPS: Step[] = [
  { op: 'credit', on: 'F', amount: 50 },
  // Pending money is never spendable (§24): 100 posted, 50 pending.
  { op: 'debit', on: 'F', amount: 120 },
  { op: 'debit', on: 'E', amount: 10 },
  { op: 'credit', on: 'F', amount: 5, backdated: true },
  { op: 'transfer', from: 'D', to: 'F', amount: 30 },
  {
    op: 'ledger_transaction',
    legs: [
      ['D', 'debit', 20],
      ['F', 'credit', 10],
      ['E', 'credit', 10],
    ],
  },
  { op: 'debit', on: 'E', amount: 15 },
  { op: 'credit', on: 'D', amount: 5 },
  { op: 'debit', on: 'F', amount: 100 },
  { op: 'debit', on: 'F', amount: 1 },
];
const EXPECTED = [
  'ok',
  'insufficient_funds',
  'insufficient_funds',
  'period_closed',
  'ok',
  'ok',
  'insufficient_funds',
  'ok',
  'ok',
  'insufficient_funds',
];
/** Posted balances and F's pending credits once every step ran. */
const FINAL = { D: 55, F: 0, E: 10, pendingF: 90 };

async function accounts(): Promise<Accounts> {
  const F = await api.account(100);
  expect(
    (await api.post(`/v1/accounts/${F}/settings`, { creditIntake: 'deferred' })).statusCode,
  ).toBe(200);
  const closed = await api.post(`/v1/accounts/${F}/period-closes`, { through: daysAgo(1) });
  expect(closed.statusCode).toBe(200);
  return { D: await api.account(100), F, E: await api.account() };
}

/** A step as the single route's request: path and body. */
function request(step: Step, a: Accounts): { path: string; body: Record<string, unknown> } {
  const when = (s: { backdated?: true }) => (s.backdated ? { effectiveAt: daysAgo(2) } : {});
  switch (step.op) {
    case 'credit':
    case 'debit': {
      const body = { type: step.op, amount: step.amount, currency: 'EUR', ...when(step) };
      return { path: `/v1/accounts/${a[step.on]}/transactions`, body };
    }
    case 'transfer':
      return {
        path: '/v1/transfers',
        body: {
          fromAccountId: a[step.from],
          toAccountId: a[step.to],
          amount: step.amount,
          currency: 'EUR',
        },
      };
    case 'ledger_transaction':
      return {
        path: '/v1/ledger-transactions',
        body: {
          currency: 'EUR',
          legs: step.legs.map(([r, direction, amount]) => ({ accountId: a[r], direction, amount })),
        },
      };
  }
}

const operation = (step: Step, a: Accounts) => ({
  key: randomUUID(),
  op: step.op,
  ...(step.op === 'credit' || step.op === 'debit' ? { accountId: a[step.on] } : {}),
  body: request(step, a).body,
});

const outcomeOf = (status: number, body: { code?: unknown }) =>
  status === 201 ? 'ok' : String(body.code);
const resultsOf = (res: HttpResult) =>
  (bodyOf(res).results as { status: number; body: { code?: unknown } }[]).map((r) =>
    outcomeOf(r.status, r.body),
  );

/** Each step as an SQS ledger event, one invocation each: a refusal is a dead letter's code. */
async function viaEvent(step: Step, a: Accounts): Promise<string> {
  const { body } = request(step, a);
  const data = { amount: 0, currency: 'EUR' as const };
  const spec =
    step.op === 'ledger_transaction'
      ? { type: 'ledger.transaction.v1' as const, subject: a.D, legs: body.legs as never }
      : step.op === 'transfer'
        ? { type: 'ledger.transfer.v1' as const, subject: a[step.from], toAccountId: a[step.to] }
        : { type: `ledger.${step.op}.v1` as const, subject: a[step.on] };
  const event = ledgerEvent({
    ...spec,
    ...('amount' in step ? { amount: step.amount } : data),
    ...(body.effectiveAt ? { effectiveAt: String(body.effectiveAt) } : {}),
  });
  const before = deadLetters.length;
  const answer = await consume(sqsEvent(sqsRecord(JSON.stringify(event))));
  expect(answer.batchItemFailures).toEqual([]);
  return deadLetters[before]?.code ?? 'ok';
}

const TRANSPORTS: Record<string, (a: Accounts) => Promise<string[]>> = {
  'single HTTP': async (a) => {
    const outcomes: string[] = [];
    for (const step of STEPS) {
      const { path, body } = request(step, a);
      const res = await api.post(path, body);
      outcomes.push(outcomeOf(res.statusCode, bodyOf(res)));
    }
    return outcomes;
  },
  'an independent batch': async (a) => {
    const res = await api.post('/v1/batches', {
      mode: 'independent',
      operations: STEPS.map((step) => operation(step, a)),
    });
    expect(res.statusCode).toBe(200);
    return resultsOf(res);
  },
  'atomic batches of one': async (a) => {
    const outcomes: string[] = [];
    for (const step of STEPS) {
      const res = await api.post('/v1/batches', {
        mode: 'atomic',
        operations: [operation(step, a)],
      });
      const body = bodyOf(res) as { cause?: { code?: unknown } };
      outcomes.push(res.statusCode === 200 ? (resultsOf(res)[0] ?? '') : String(body.cause?.code));
    }
    return outcomes;
  },
  'SQS events': async (a) => {
    const outcomes: string[] = [];
    for (const step of STEPS) outcomes.push(await viaEvent(step, a));
    return outcomes;
  },
};

async function standing(a: Accounts) {
  const pending = await api.get(`/v1/accounts/${a.F}/pending-credits`, 'alice', { limit: '100' });
  const items = bodyOf(pending).items as { amount: number }[];
  return {
    D: (await api.money(a.D)).balance,
    F: (await api.money(a.F)).balance,
    E: (await api.money(a.E)).balance,
    pendingF: items.reduce((sum, item) => sum + item.amount, 0),
  };
}

/** The reversals (HTTP only) of the credit into D and of the transfer into F, found by listing. */
async function reversals(a: Accounts): Promise<string[]> {
  const entries = await api.entries(a.D);
  const credit = entries.find((e) => e.type === 'credit' && e.amount === 5);
  const transfer = entries.find((e) => e.type === 'transfer_out');
  const reversed = await api.post(`/v1/accounts/${a.D}/transactions/${credit?.id}/reversals`, {});
  // F's 30 is pending, and F has no posted money left: not spendable, whichever way it came.
  const back = await api.post(`/v1/transfers/${transfer?.transferId}/reversals`, {});
  return [
    outcomeOf(reversed.statusCode, bodyOf(reversed)),
    outcomeOf(back.statusCode, bodyOf(back)),
  ];
}

describe('the same movements through every transport', () => {
  it.each(Object.keys(TRANSPORTS))('%s: the same outcomes, codes and balances', async (name) => {
    const a = await accounts();
    expect(await (TRANSPORTS[name] as (a: Accounts) => Promise<string[]>)(a)).toEqual(EXPECTED);
    expect(await standing(a)).toEqual(FINAL);
    expect(await reversals(a)).toEqual(['ok', 'insufficient_funds']);
    expect(await standing(a)).toEqual({ ...FINAL, D: FINAL.D - 5 });
  });

  // The atomic cases of docs/contract.md §25: what one by one answers first is the refusal.
  it.each([
    ['[credit F 50, debit F 120]', [STEPS[0], STEPS[1]]],
    ['[credit F 50, debit F 120, debit E 10]', [STEPS[0], STEPS[1], STEPS[2]]],
    ['[debit F 10, credit F 5 before the closed period]', [{ ...STEPS[1], amount: 10 }, STEPS[3]]],
    ['every step', STEPS],
  ] as [string, Step[]][])(
    'atomic %s fails as one by one first fails, nothing applied',
    async (_, steps) => {
      const [alone, together] = [await accounts(), await accounts()];
      const oneByOne: string[] = [];
      for (const step of steps) {
        const { path, body } = request(step, alone);
        const res = await api.post(path, body);
        oneByOne.push(outcomeOf(res.statusCode, bodyOf(res)));
      }
      const res = await api.post('/v1/batches', {
        mode: 'atomic',
        operations: steps.map((step) => operation(step, together)),
      });
      const body = bodyOf(res) as {
        code?: unknown;
        failedOperation?: number;
        cause?: { code?: unknown };
      };
      const failed = oneByOne.findIndex((outcome) => outcome !== 'ok');
      expect(failed).toBeGreaterThan(0);
      expect([res.statusCode, body.code, body.failedOperation, body.cause?.code]).toEqual([
        409,
        'batch_rejected',
        failed,
        oneByOne[failed],
      ]);
      expect(await standing(together)).toEqual({ D: 100, F: 100, E: 0, pendingF: 0 });
    },
  );

  it('an atomic batch of the ones that apply commits them all, to the same balances', async () => {
    const a = await accounts();
    const applying = STEPS.filter((_, i) => EXPECTED[i] === 'ok');
    const res = await api.post('/v1/batches', {
      mode: 'atomic',
      operations: applying.map((step) => operation(step, a)),
    });
    expect(res.statusCode).toBe(200);
    expect(resultsOf(res)).toEqual(applying.map(() => 'ok'));
    expect(await standing(a)).toEqual(FINAL);
  });
});
