/** HTTP scenarios: latency of one request at a time, and throughput with requests in flight. */
import { randomUUID } from 'node:crypto';
import type { HttpEvent, HttpResult } from '../../functions/api/types';
import { httpEvent } from '../../kit/http-event';
import type { CpuMeter, CpuSplit } from '../cpu';
import type { LatencyProxy } from '../latency-proxy';

export const PRINCIPAL = 'bench';

/** One implementation under test, with accounts of its own so sides never touch each other. */
export interface HttpSide {
  readonly name: string;
  readonly send: (event: HttpEvent) => Promise<HttpResult>;
  readonly hotAccount: string;
  readonly spreadAccounts: readonly string[];
  /** The latency scenarios' request under `key` (`amount` 2 for a mismatch). @default a credit of hotAccount */
  readonly request?: (key: string, amount: number) => HttpEvent;
}

export type LatencyScenario = 'first' | 'replay' | 'mismatch';
export const LATENCY_SCENARIOS: readonly LatencyScenario[] = ['first', 'replay', 'mismatch'];

/** What each scenario must answer; anything else means a side is broken and stops the bench. */
const EXPECTED_STATUS: Record<LatencyScenario, number> = { first: 201, replay: 201, mismatch: 422 };

export interface LatencyRound {
  readonly samplesMs: number[];
  /** DynamoDB calls through the proxy, per request. */
  readonly calls: number[];
  /** Of those, `TransactWriteItems` calls (a replay answered by a read sent first has none). */
  readonly transactions: number[];
}

const credit = (amount: number) => ({ type: 'credit', amount, currency: 'EUR' });

export const postCredit = (accountId: string, key: string, amount = 1): HttpEvent =>
  httpEvent('POST', `/v1/accounts/${accountId}/transactions`, {
    principal: PRINCIPAL,
    idempotencyKey: key,
    body: credit(amount),
  });

/**
 * A ledger transaction of `1 + credited.length` legs (docs/contract.md §16): the payer debited,
 * every other account credited `amount`, in ONE transaction like a credit.
 */
export const postLedgerTransaction =
  (payer: string, credited: readonly string[]) =>
  (key: string, amount = 1): HttpEvent =>
    httpEvent('POST', '/v1/ledger-transactions', {
      principal: PRINCIPAL,
      idempotencyKey: key,
      body: {
        currency: 'EUR',
        legs: [
          { accountId: payer, direction: 'debit', amount: amount * credited.length },
          ...credited.map((accountId) => ({ accountId, direction: 'credit', amount })),
        ],
      },
    });

async function expectStatus(side: HttpSide, event: HttpEvent, status: number): Promise<void> {
  const result = await side.send(event);
  if (result.statusCode !== status) {
    throw new Error(
      `${side.name}: expected ${status}, got ${result.statusCode} ${result.body.slice(0, 200)}`,
    );
  }
}

/** `requests` requests one after another; a replay or mismatch reuses one key settled before. */
export async function latencyRound(
  side: HttpSide,
  scenario: LatencyScenario,
  requests: number,
  proxy: LatencyProxy,
): Promise<LatencyRound> {
  const request = side.request ?? ((key, amount) => postCredit(side.hotAccount, key, amount));
  const settledKey = randomUUID();
  if (scenario !== 'first') await expectStatus(side, request(settledKey, 1), 201);
  const samplesMs: number[] = [];
  const calls: number[] = [];
  const transactions: number[] = [];
  const transacted = () => proxy.counts().TransactWriteItems ?? 0;
  for (let i = 0; i < requests; i++) {
    const event =
      scenario === 'first'
        ? request(randomUUID(), 1)
        : request(settledKey, scenario === 'mismatch' ? 2 : 1);
    const before = proxy.total();
    const transactedBefore = transacted();
    const start = performance.now();
    await expectStatus(side, event, EXPECTED_STATUS[scenario]);
    samplesMs.push(performance.now() - start);
    calls.push(proxy.total() - before);
    transactions.push(transacted() - transactedBefore);
  }
  return { samplesMs, calls, transactions };
}

export interface ThroughputRound {
  readonly perSecond: number;
  readonly callsPerRequest: number;
  /** CPU per request of the bench process and of DynamoDB Local, when a meter was given. */
  readonly cpuMsPerRequest?: CpuSplit;
}

/**
 * `requests` first requests, `inFlight` at a time, spread round-robin over `accounts`; with
 * `cpu`, also what they cost the bench process and DynamoDB Local in CPU time.
 */
export async function throughputRound(
  side: HttpSide,
  inFlight: number,
  accounts: readonly string[],
  requests: number,
  proxy: LatencyProxy,
  cpu?: CpuMeter,
): Promise<ThroughputRound> {
  let next = 0;
  const before = proxy.total();
  const stopCpu = cpu?.();
  const start = performance.now();
  const worker = async () => {
    while (next < requests) {
      const account = accounts[next++ % accounts.length] as string;
      await expectStatus(side, postCredit(account, randomUUID()), 201);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const seconds = (performance.now() - start) / 1000;
  const used = stopCpu?.();
  return {
    perSecond: requests / seconds,
    callsPerRequest: (proxy.total() - before) / requests,
    ...(used ? { cpuMsPerRequest: perRequest(used, requests) } : {}),
  };
}

const perRequest = (used: CpuSplit, requests: number): CpuSplit => ({
  benchMs: used.benchMs / requests,
  ...(used.dynamoMs === undefined ? {} : { dynamoMs: used.dynamoMs / requests }),
});
