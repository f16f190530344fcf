import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { HttpResult } from '../../functions/api/types';
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
 * Model-based: random rounds of credits, debits, transfers, holds, captures, voids, concurrent
 * duplicates, later replays and key reuse run against DynamoDB Local, each round concurrently;
 * after every round the service must agree with the pure reference model
 * (test/support/ledger-model.ts) on every outcome, every balance and available balance and, at
 * the end, every entry and every replayed body.
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
  fc
    .record({
      account: accountArb,
      offset: fc.integer({ min: 1, max: ACCOUNTS - 1 }),
      amount: amountArb,
    })
    .map(({ account, offset, amount }) => ({
      kind: 'transfer' as const,
      account,
      to: (account + offset) % ACCOUNTS,
      amount,
    })),
  fc.record({ kind: fc.constant('hold' as const), account: accountArb, amount: amountArb }),
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

/**
 * How a model command is sent over HTTP; exhaustive over `Command`. `holdIds` maps the key that
 * placed a hold to its server id. A listing entry is identified by its transfer or hold when it
 * has one, else by its own id.
 */
function httpOf(
  command: Command,
  accountIds: readonly string[],
  holdIds: ReadonlyMap<string, string>,
): HttpCommand {
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
    case 'transfer': {
      const body = {
        fromAccountId: accountIds[command.account],
        toAccountId: accountIds[command.to],
        amount: command.amount,
        currency: 'EUR',
      };
      return {
        path: '/v1/transfers',
        body,
        created: body,
        entriesOf: (created) => [
          { account: command.account, id: created.id },
          { account: command.to, id: created.id },
        ],
      };
    }
    case 'hold': {
      const body = { amount: command.amount, currency: 'EUR', expiresInSeconds: 3600 };
      return {
        path: `/v1/accounts/${accountIds[command.account]}/holds`,
        body,
        created: { amount: command.amount, status: 'active', capturedAmount: 0 },
        entriesOf: () => [],
      };
    }
    case 'capture':
    case 'void': {
      const holdId = holdIds.get(command.hold) ?? '';
      const capture = command.kind === 'capture';
      const body = capture && command.amount !== undefined ? { amount: command.amount } : {};
      return {
        path: `/v1/holds/${holdId}/${capture ? 'captures' : 'voids'}`,
        body,
        created: { id: holdId, status: capture ? 'captured' : 'voided' },
        entriesOf: (settled) => {
          const account = accountOfHold.get(command.hold) ?? -1;
          return capture ? [{ account, id: settled.id }] : [];
        },
      };
    }
  }
}

/** The account index of each placed hold, by the key that placed it (set by the driver). */
const accountOfHold = new Map<string, number>();

type Action =
  | { kind: 'new'; command: Command }
  | { kind: 'duplicate'; of: number }
  | { kind: 'replay'; of: number }
  | { kind: 'reuse'; of: number }
  /** Of a hold placed in an earlier round; `percent` of it, or all of it when undefined. */
  | { kind: 'capture'; of: number; percent: number | undefined }
  | { kind: 'void'; of: number };

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('new' as const), command: commandArb }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('capture' as const),
      of: fc.nat(),
      percent: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('void' as const), of: fc.nat() }) },
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

/** The same key with another request: what `reuse` sends; undefined when there is none. */
function altered(command: Command): Command | undefined {
  switch (command.kind) {
    case 'void':
      return undefined;
    case 'capture':
      return { ...command, amount: command.amount === undefined ? 1 : undefined };
    default:
      return { ...command, amount: command.amount + 1 };
  }
}

/**
 * Turns generated actions into requests; references to nothing yet become no-ops. `placed` are
 * the holds that earlier rounds placed: key and amount.
 */
function requestsOf(
  group: readonly Action[],
  history: readonly Request[],
  newKey: () => string,
  placed: readonly { key: string; amount: number }[] = [],
) {
  const requests: Request[] = [];
  for (const action of group) {
    if (action.kind === 'new') {
      requests.push({ key: newKey(), command: action.command });
      continue;
    }
    if (action.kind === 'capture' || action.kind === 'void') {
      const hold = placed[action.of % Math.max(placed.length, 1)];
      if (!hold) continue;
      const amount =
        action.kind === 'capture' && action.percent !== undefined
          ? Math.max(1, Math.floor((hold.amount * action.percent) / 100))
          : undefined;
      const command: Command =
        action.kind === 'capture'
          ? { kind: 'capture', hold: hold.key, amount }
          : { kind: 'void', hold: hold.key };
      requests.push({ key: newKey(), command });
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
      const command = earlier && altered(earlier.command);
      if (earlier && command) requests.push({ key: earlier.key, command });
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
      /** Server ids of the holds placed so far, by the key that placed them. */
      const holdIds = new Map<string, string>();
      const send = (request: Request) => {
        const { path, body } = httpOf(request.command, accountIds, holdIds);
        return postUntilFinal(app, path, request.key, body);
      };

      let model: ModelState = initialState(ACCOUNTS);
      const history: Request[] = [];
      /** The first body each key answered; every later answer for it must equal it byte for byte. */
      const firstBodies = new Map<string, string>();
      /** Per account index, the ids of the entries the 201 answers created. */
      const createdIds: string[][] = accountIds.map(() => []);
      for (const group of plan) {
        const placed = [...model.holds].map(([key, hold]) => ({ key, amount: hold.amount }));
        const requests = requestsOf(group, history, newKey, placed);
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
          if (result.statusCode === 200 || result.statusCode === 201) {
            const http = httpOf(request.command, accountIds, holdIds);
            const created = JSON.parse(result.body) as { id: string };
            expect(created).toMatchObject(http.created);
            for (const entry of http.entriesOf(created)) createdIds[entry.account]?.push(entry.id);
            if (request.command.kind === 'hold') {
              holdIds.set(request.key, created.id);
              accountOfHold.set(request.key, request.command.account);
            }
          }
        });
        for (const request of requests) {
          if (!history.some((h) => h.key === request.key)) history.push(request);
        }
        const money = await Promise.all(accountIds.map((id) => verify.money(id)));
        expect(money.map((m) => m.balance)).toEqual(model.balances);
        expect(money.map((m) => m.available)).toEqual(model.available);
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
        // A transfer leg is known by its transfer, a capture by its hold (what the 2xx showed).
        const identity = (e: Record<string, unknown>) => String(e.transferId ?? e.holdId ?? e.id);
        expect(entries.map(identity).sort()).toEqual([...(createdIds[index] ?? [])].sort());
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
  // Concurrent requests on one account met real contention (the layer cancelled some).
  expect(ledger().contention.stats.conflicts).toBeGreaterThan(0);
});
