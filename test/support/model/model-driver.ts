import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { HttpResult } from '../../../functions/api/types';
import {
  type Command,
  explainConcurrent,
  fold,
  initialState,
  type ModelLeg,
  type ModelState,
  type Outcome,
  type OutcomeOptions,
  type Request,
} from './ledger-model';
import { type Action, altered } from './model-arbitraries';
import { expectMoney, type Made, verifyEnd } from './model-checks';

export { type Action, planArb } from './model-arbitraries';

/**
 * Drives random rounds of commands — credits, debits, transfers, holds, captures, voids, ledger
 * transactions, reversals (racing ones included), closings, concurrent duplicates, later
 * replays and key reuse — against the service and the reference model
 * (test/support/model/ledger-model.ts). Each round runs concurrently; after every round the service
 * must agree with the model on every outcome, balance and available balance, and at the end on
 * every entry, every reversedAmount, every status, every replayed body, and on money
 * conservation: each transfer and ledger transaction sums to zero, and the balances sum to the
 * credits, debits and captures (and their reversals) alone.
 */

export interface ModelVerify {
  money(
    accountId: string,
  ): Promise<{ balance: number; available: number; status?: string; version?: number }>;
  /** Every entry of the account, all pages. */
  entries(accountId: string): Promise<Record<string, unknown>[]>;
  /** A GET of `path` as the owner, parsed. */
  read(path: string): Promise<Record<string, unknown>>;
}

export interface ModelEnvironment {
  /** POST until a final answer (a caller's retry loop). */
  send(path: string, key: string, body: unknown): Promise<HttpResult>;
  /** A new account of the owner with this overdraft limit, `deferred` (§24) when asked. */
  account(overdraftLimit: number, deferred: boolean): Promise<string>;
  readonly verify: ModelVerify;
  /** Overdraft limit per account index; its length is the number of accounts. */
  readonly overdraft: readonly number[];
  /** Per account index: takes its credits deferred (docs/contract.md §24). */
  readonly deferred?: readonly boolean[];
  /** Runs the folder on these accounts until nothing is pending; after every round. */
  fold?(accountIds: readonly string[]): Promise<void>;
  /** Transactions' answers may be lost after DynamoDB decided ({@link OutcomeOptions}). */
  readonly answersMayBeLost?: boolean;
}

const MAX_GROUP = 5;

/** Turns generated actions into requests; references to nothing yet become no-ops. */
function requestsOf(
  group: readonly Action[],
  history: readonly Request[],
  newKey: () => string,
  model: ModelState,
): Request[] {
  const requests: Request[] = [];
  const placed = [...model.holds].map(([key, hold]) => ({ key, amount: hold.amount }));
  const movements = [...model.movements].map(([key, m]) => ({
    key,
    amount: m.amount,
    whole: m.kind === 'ledger',
  }));
  for (const action of group) {
    const pick = <T>(list: readonly T[], of: number) => list[of % Math.max(list.length, 1)];
    if (action.kind === 'new') requests.push({ key: newKey(), command: action.command });
    else if (action.kind === 'capture' || action.kind === 'void') {
      const hold = pick(placed, action.of);
      if (!hold) continue;
      const amount =
        action.kind === 'capture' && action.percent !== undefined
          ? Math.max(1, Math.floor((hold.amount * action.percent) / 100))
          : undefined;
      requests.push({
        key: newKey(),
        command:
          action.kind === 'capture'
            ? { kind: 'capture', hold: hold.key, amount }
            : { kind: 'void', hold: hold.key },
      });
    } else if (action.kind === 'reverse') {
      const original = pick(movements, action.of);
      if (!original) continue;
      // A ledger transaction is reversed whole: its request has no amount, nor has the command,
      // so the model tells requests apart as the service's fingerprint does.
      const amount =
        action.percent === undefined || original.whole
          ? undefined
          : Math.max(1, Math.floor((original.amount * action.percent) / 100));
      const command: Command = { kind: 'reverse', of: original.key, amount };
      for (let i = 0; i < action.copies; i++) requests.push({ key: newKey(), command });
    } else if (action.kind === 'duplicate') {
      const original = pick(requests, action.of);
      if (original) requests.push(original);
    } else if (action.kind === 'replay') {
      const earlier = pick(history, action.of);
      if (earlier) requests.push(earlier);
    } else {
      const earlier = pick(history, action.of);
      const command = earlier && altered(earlier.command);
      if (earlier && command) requests.push({ key: earlier.key, command });
    }
  }
  return requests.slice(0, MAX_GROUP);
}

interface HttpCommand {
  readonly path: string;
  readonly body: Record<string, unknown>;
  /** What a 2xx body must contain. */
  readonly created: Record<string, unknown>;
  /** The accounts whose listings show an entry for a 2xx body. */
  readonly accounts: readonly number[];
}

const legsOf = (legs: readonly ModelLeg[], ids: readonly string[]) =>
  legs.map((l) => ({ accountId: ids[l.account], direction: l.direction, amount: l.amount }));

/** How a model command is sent over HTTP; exhaustive over `Command`. */
function httpOf(
  command: Command,
  ids: readonly string[],
  made: ReadonlyMap<string, Made>,
  model: ModelState,
): HttpCommand {
  switch (command.kind) {
    case 'credit':
    case 'debit': {
      const body = { type: command.kind, amount: command.amount, currency: 'EUR' };
      const path = `/v1/accounts/${ids[command.account]}/transactions`;
      return {
        path,
        body,
        created: { ...body, accountId: ids[command.account] },
        accounts: [command.account],
      };
    }
    case 'transfer': {
      const body = {
        fromAccountId: ids[command.account],
        toAccountId: ids[command.to],
        amount: command.amount,
        currency: 'EUR',
      };
      return {
        path: '/v1/transfers',
        body,
        created: body,
        accounts: [command.account, command.to],
      };
    }
    case 'hold': {
      const body = { amount: command.amount, currency: 'EUR', expiresInSeconds: 3600 };
      const path = `/v1/accounts/${ids[command.account]}/holds`;
      return { path, body, created: { amount: command.amount, status: 'active' }, accounts: [] };
    }
    case 'capture':
    case 'void': {
      const hold = made.get(command.hold);
      const capture = command.kind === 'capture';
      const body = capture && command.amount !== undefined ? { amount: command.amount } : {};
      return {
        path: `/v1/holds/${hold?.id}/${capture ? 'captures' : 'voids'}`,
        body,
        created: { id: hold?.id, status: capture ? 'captured' : 'voided' },
        accounts: capture && hold?.account !== undefined ? [hold.account] : [],
      };
    }
    case 'ledger': {
      const body = { currency: 'EUR', legs: legsOf(command.legs, ids) };
      return {
        path: '/v1/ledger-transactions',
        body,
        created: body,
        accounts: command.legs.map((l) => l.account),
      };
    }
    case 'reverse': {
      const original = made.get(command.of);
      const movement = model.movements.get(command.of);
      const accounts = movement?.legs.map((l) => l.account) ?? [];
      const reference = command.reference === undefined ? {} : { reference: command.reference };
      const body = {
        ...(command.amount === undefined ? {} : { amount: command.amount }),
        ...reference,
      };
      const kind = original?.kind === 'ledger' ? 'ledger_transaction' : original?.kind;
      const created = { reversalOf: { kind, id: original?.id } };
      if (original?.kind === 'ledger') {
        if (command.amount !== undefined) {
          throw new Error(`a ledger transaction is reversed whole, not by ${command.amount}`);
        }
        return {
          path: `/v1/ledger-transactions/${original.id}/reversals`,
          body: reference,
          created,
          accounts,
        };
      }
      if (original?.kind === 'transfer') {
        return { path: `/v1/transfers/${original.id}/reversals`, body, created, accounts };
      }
      const path = `/v1/accounts/${ids[original?.account ?? 0]}/transactions/${original?.id}/reversals`;
      return { path, body, created, accounts };
    }
    case 'close':
      return {
        path: `/v1/accounts/${ids[command.account]}/close`,
        body: {},
        created: { status: 'closed' },
        accounts: [],
      };
  }
}

function outcomeOf(result: HttpResult): Outcome {
  const body = JSON.parse(result.body) as { code?: string };
  return {
    status: result.statusCode,
    ...(result.statusCode >= 400 ? { code: body.code } : {}),
    replayed: result.headers['idempotent-replayed'] === 'true',
  };
}

/** What a run learns as it goes: server ids, first bodies, what each listing must show. */
interface Learned {
  readonly made: Map<string, Made>;
  /** The first body each key answered; every later answer for it must equal it byte for byte. */
  readonly firstBodies: Map<string, string>;
  /** Per account index, the ids the 2xx answers stand for in its listing. */
  readonly expectedIds: string[][];
}

/** Checks one answer against what the key answered before, and learns from a first 2xx. */
function learn(learned: Learned, request: Request, result: HttpResult, http: HttpCommand): void {
  if (result.statusCode === 422) return; // key reuse and unbalanced legs are never recorded
  const first = learned.firstBodies.get(request.key);
  if (first !== undefined) {
    expect(result.body).toBe(first);
    return;
  }
  learned.firstBodies.set(request.key, result.body);
  if (result.statusCode >= 300) return;
  const created = JSON.parse(result.body) as { id: string };
  expect(created).toMatchObject(http.created);
  const { command } = request;
  // A capture answers with its hold, and its entry is known by the hold's id.
  const shown = command.kind === 'capture' ? String(http.created.id) : created.id;
  for (const account of http.accounts) learned.expectedIds[account]?.push(shown);
  if (command.kind === 'credit' || command.kind === 'debit' || command.kind === 'hold') {
    const kind = command.kind === 'hold' ? 'hold' : 'entry';
    learned.made.set(request.key, { kind, id: created.id, account: command.account });
  } else if (command.kind === 'transfer' || command.kind === 'ledger') {
    learned.made.set(request.key, { kind: command.kind, id: created.id });
  }
}

/** Runs one generated plan against the service and the model, asserting as it goes. */
export async function runPlan(env: ModelEnvironment, plan: readonly (readonly Action[])[]) {
  const run = randomUUID();
  let counter = 0;
  const newKey = () => `${run}-${counter++}`;
  const ids: string[] = [];
  for (const [i, limit] of env.overdraft.entries()) {
    ids.push(await env.account(limit, env.deferred?.[i] === true));
  }
  const learned: Learned = {
    made: new Map(),
    firstBodies: new Map(),
    expectedIds: ids.map(() => []),
  };
  let model = initialState(ids.length, env.overdraft, env.deferred);
  const history: Request[] = [];
  for (const group of plan) {
    const requests = requestsOf(group, history, newKey, model);
    const sent = requests.map((r) => httpOf(r.command, ids, learned.made, model));
    const results = await Promise.all(
      requests.map((r, i) => env.send(sent[i]?.path ?? '', r.key, sent[i]?.body)),
    );
    const observed = results.map(outcomeOf);
    const next = explainConcurrent(model, requests, observed, {
      firstMayReplay: env.answersMayBeLost === true,
    });
    expect(
      next,
      `no serial order explains ${JSON.stringify({ requests, observed })}`,
    ).toBeDefined();
    model = next as ModelState;
    requests.forEach((request, i) => {
      learn(learned, request, results[i] as HttpResult, sent[i] as HttpCommand);
    });
    for (const request of requests) {
      if (!history.some((h) => h.key === request.key)) history.push(request);
    }
    // Pending credits (§24) are in no balance until the folder has run.
    await expectMoney(env, ids, model);
    if (env.fold) {
      await env.fold(ids.filter((_, i) => model.deferred[i]));
      model = fold(model);
      await expectMoney(env, ids, model);
    }
  }
  await verifyEnd(env, ids, learned.made, model, learned.expectedIds);
}
