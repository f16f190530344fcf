import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { HttpResult } from '../../functions/http/types';
import {
  type Command,
  explainConcurrent,
  initialState,
  type ModelState,
  type Outcome,
  type Request,
} from '../support/ledger-model';
import { createAccount, ledgerPerFile, postUntilFinal } from './support/ledger';

/**
 * Model-based: random rounds of credits, debits, concurrent duplicates, later replays and key
 * reuse run against DynamoDB Local, each round concurrently; after every round the service
 * must agree with the pure reference model (test/support/ledger-model.ts) on every outcome,
 * every balance and, at the end, every entry and every replayed body.
 */
const ledger = ledgerPerFile(42);
const ACCOUNTS = 3;

const accountArb = fc.nat({ max: ACCOUNTS - 1 });
/** Round amounts too, so a debit of exactly the balance (the cover boundary) comes up often. */
const amountArb = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 400 }) },
  { weight: 2, arbitrary: fc.constantFrom(50, 100) },
);

/**
 * One generator per command kind. A new kind (transfers, holds) adds its generator here, its
 * effect in the model (test/support/ledger-model.ts) and its request in `httpOf`; the compiler
 * points at `httpOf` until it does.
 */
const COMMAND_ARBITRARIES: readonly fc.Arbitrary<Command>[] = [
  fc.record({ kind: fc.constant('credit' as const), account: accountArb, amount: amountArb }),
  fc.record({ kind: fc.constant('debit' as const), account: accountArb, amount: amountArb }),
];
const commandArb = fc.oneof(...COMMAND_ARBITRARIES);

interface HttpCommand {
  readonly path: string;
  readonly body: Record<string, unknown>;
  /** What a 201 body must contain. */
  readonly created: Record<string, unknown>;
  /** The listing entries a 201 body stands for: account index and entry id. */
  entriesOf(created: { id: string }): readonly { account: number; id: string }[];
}

/** How a model command is sent over HTTP; exhaustive over `Command`. */
function httpOf(command: Command, accountIds: readonly string[]): HttpCommand {
  switch (command.kind) {
    case 'credit':
    case 'debit': {
      const body = { type: command.kind, amount: command.amount, currency: 'EUR' };
      return {
        path: `/v1/accounts/${accountIds[command.account]}/transactions`,
        body,
        created: { ...body, accountId: accountIds[command.account] },
        entriesOf: (created) => [{ account: command.account, id: created.id }],
      };
    }
  }
}

type Action =
  | { kind: 'new'; command: Command }
  | { kind: 'duplicate'; of: number }
  | { kind: 'replay'; of: number }
  | { kind: 'reuse'; of: number };

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('new' as const), command: commandArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('duplicate' as const), of: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('replay' as const), of: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reuse' as const), of: fc.nat() }) },
);

/** Rounds of at most 4 concurrent requests. */
const planArb = fc.array(fc.array(actionArb, { minLength: 1, maxLength: 4 }), {
  minLength: 1,
  maxLength: 6,
});

const EXACT_COVER: Action[][] = [
  [{ kind: 'new', command: { kind: 'credit', account: 0, amount: 100 } }],
  [
    { kind: 'new', command: { kind: 'debit', account: 0, amount: 100 } },
    { kind: 'new', command: { kind: 'debit', account: 0, amount: 100 } },
    { kind: 'duplicate', of: 0 },
  ],
  [{ kind: 'replay', of: 1 }],
];

/** Turns generated actions into requests; references to nothing yet become no-ops. */
function requestsOf(group: readonly Action[], history: readonly Request[], newKey: () => string) {
  const requests: Request[] = [];
  for (const action of group) {
    if (action.kind === 'new') {
      requests.push({ key: newKey(), command: action.command });
      continue;
    }
    const pick = (list: readonly Request[]) => list[action.of % Math.max(list.length, 1)];
    if (action.kind === 'duplicate') {
      const original = pick(requests);
      if (original) requests.push(original);
    }
    if (action.kind === 'replay') {
      const earlier = pick(history);
      if (earlier) requests.push(earlier);
    }
    if (action.kind === 'reuse') {
      const earlier = pick(history);
      if (earlier) {
        const command = { ...earlier.command, amount: earlier.command.amount + 1 };
        requests.push({ key: earlier.key, command });
      }
    }
  }
  return requests;
}

function outcomeOf(result: HttpResult): Outcome {
  const body = JSON.parse(result.body) as { code?: string };
  return {
    status: result.statusCode,
    ...(result.statusCode >= 400 ? { code: body.code } : {}),
    replayed: result.headers['idempotent-replayed'] === 'true',
  };
}

it('agrees with the reference model on outcomes, balances, entries and replayed bodies', async () => {
  const { app, verify } = ledger();
  await fc.assert(
    fc.asyncProperty(planArb, async (plan) => {
      const run = randomUUID();
      let counter = 0;
      const newKey = () => `${run}-${counter++}`;
      const accountIds: string[] = [];
      for (let i = 0; i < ACCOUNTS; i++) accountIds.push(await createAccount(app));
      const send = (request: Request) => {
        const { path, body } = httpOf(request.command, accountIds);
        return postUntilFinal(app, path, request.key, body);
      };

      let model: ModelState = initialState(ACCOUNTS);
      const history: Request[] = [];
      /** The first body each key answered; every later answer for it must equal it byte for byte. */
      const firstBodies = new Map<string, string>();
      /** Per account index, the ids of the entries the 201 answers created. */
      const createdIds: string[][] = accountIds.map(() => []);
      for (const group of plan) {
        const requests = requestsOf(group, history, newKey);
        const results = (await Promise.all(requests.map(send))).map((r) => r.result);
        const observed = results.map(outcomeOf);
        const next = explainConcurrent(model, requests, observed);
        expect(
          next,
          `no serial order explains ${JSON.stringify({ requests, observed })}`,
        ).toBeDefined();
        model = next as ModelState;

        requests.forEach((request, i) => {
          const result = results[i] as HttpResult;
          if (result.statusCode === 422) return; // key reuse is answered, never recorded
          const first = firstBodies.get(request.key);
          if (first !== undefined) {
            expect(result.body).toBe(first);
            return;
          }
          firstBodies.set(request.key, result.body);
          if (result.statusCode === 201) {
            const http = httpOf(request.command, accountIds);
            const created = JSON.parse(result.body) as { id: string };
            expect(created).toMatchObject(http.created);
            for (const entry of http.entriesOf(created)) createdIds[entry.account]?.push(entry.id);
          }
        });
        for (const request of requests) {
          if (!history.some((h) => h.key === request.key)) history.push(request);
        }
        const balances = await Promise.all(accountIds.map((id) => verify.balance(id)));
        expect(balances).toEqual(model.balances);
      }

      for (const [index, accountId] of accountIds.entries()) {
        const entries = await verify.entries(accountId);
        const summarize = (list: readonly Record<string, unknown>[]) =>
          list.map((e) => `${e.type}:${e.amount}`).sort();
        const expected = (model.entries[index] ?? []).map((p) => ({
          type: p.type,
          amount: Math.abs(p.delta),
        }));
        expect(summarize(entries)).toEqual(summarize(expected));
        expect(entries.map((e) => e.id).sort()).toEqual([...(createdIds[index] ?? [])].sort());
      }
    }),
    {
      numRuns: 20,
      interruptAfterTimeLimit: 45_000,
      markInterruptAsFailure: false,
      // Always run too: the cover boundary (a debit of exactly the balance, raced by a second).
      examples: [[EXACT_COVER]],
    },
  );
});
