import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { HttpHandler, HttpResult } from '../../../functions/api/types';
import { DYNAMODB_TIMEOUTS } from '../../../functions/dynamodb/table/client';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { httpEvent } from '../../../kit/http-event';
import {
  type ContentionLayer,
  startContentionLayer,
} from '../../../local/services/contention/proxy';
import { localDynamoClient } from '../../../local/services/dynamodb/dynamodb-local';
import { ensureLedgerTable } from '../../../local/services/dynamodb/table';
import { testConfig } from '../../support/config';
import { dynamoEndpoint } from '../../support/dynamo-lease';
import { recordingLog } from '../../support/fakes/log';
import { type FaultProxy, startFaultProxy } from '../../support/fault-proxy';

/**
 * The HTTP app composed as the Lambda composes it, on a fresh table of the run's DynamoDB Local,
 * with every DynamoDB call going through a fault proxy and then the contention layer, so
 * concurrent requests on one account are cancelled and retried as on DynamoDB
 * (docs/contract.md §20).
 */
export interface LedgerUnderFaults {
  readonly proxy: FaultProxy;
  readonly contention: ContentionLayer;
  readonly tableName: string;
  readonly app: HttpHandler;
  /** Direct to DynamoDB Local, bypassing the proxy: for checks only. */
  readonly verify: Verify;
  /** What the app logged (the suite keeps the console quiet). */
  readonly logs: ReturnType<typeof recordingLog>;
  close(): Promise<void>;
}

export interface Verify {
  balance(accountId: string): Promise<number>;
  /** `balance`, `available` (docs/contract.md §11) and `status` (§17). */
  money(
    accountId: string,
  ): Promise<{ balance: number; available: number; status: string; version: number }>;
  /** Every entry of the account, all pages. */
  entries(accountId: string): Promise<Record<string, unknown>[]>;
  /** A GET of `path` (and `query`) as the test principal, parsed (200 only). */
  read(path: string, query?: Record<string, string>): Promise<Record<string, unknown>>;
  /** Every record of the account's journal as the journal route answers it, all pages. */
  journal(accountId: string): Promise<Record<string, unknown>[]>;
}

export const PRINCIPAL = 'fault-tester';

/**
 * `stream: true` for a file that runs a stream reader (the journal projector); without one the
 * table has no stream, which DynamoDB Local would charge every write for (test/support/dynamo.ts).
 */
export interface LedgerOptions {
  readonly stream?: boolean;
}

export async function ledgerUnderFaults(
  seed: number,
  options: LedgerOptions = {},
): Promise<LedgerUnderFaults> {
  const endpoint = dynamoEndpoint();
  const tableName = `faults-${randomUUID()}`;
  const direct = localDynamoClient(endpoint);
  await ensureLedgerTable(direct, tableName, { stream: options.stream ?? false });
  const contention = await startContentionLayer({ upstream: endpoint });
  const proxy = await startFaultProxy(contention.endpoint, seed);
  // The Lambdas' own timeouts: what a stalled DynamoDB does to a request is part of the test.
  const client = localDynamoClient(proxy.endpoint, DYNAMODB_TIMEOUTS);
  const config = testConfig({ tableName });
  const logs = recordingLog();
  const callbackSecrets = staticCallbackSecrets('{}');
  const app = composeHttpHandler({ dynamo: client, config, callbackSecrets, log: logs });
  const verifyApp = composeHttpHandler({ dynamo: direct, config, callbackSecrets, log: logs });
  return {
    proxy,
    contention,
    tableName,
    app,
    verify: verifier(verifyApp),
    logs,
    close: async () => {
      client.destroy();
      direct.destroy();
      await proxy.close();
      await contention.close();
    },
  };
}

function verifier(app: HttpHandler): Verify {
  return {
    async balance(accountId) {
      return (await this.money(accountId)).balance;
    },
    async money(accountId) {
      const res = await app(
        httpEvent('GET', `/v1/accounts/${accountId}`, { principal: PRINCIPAL }),
      );
      if (res.statusCode !== 200) throw new Error(`GET account: ${res.statusCode} ${res.body}`);
      return JSON.parse(res.body) as {
        balance: number;
        available: number;
        status: string;
        version: number;
      };
    },
    async read(path, query) {
      const res = await app(
        httpEvent('GET', path, { principal: PRINCIPAL, ...(query ? { query } : {}) }),
      );
      if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode} ${res.body}`);
      return JSON.parse(res.body) as Record<string, unknown>;
    },
    async journal(accountId) {
      const records: Record<string, unknown>[] = [];
      for (let after: number | null = 0; after !== null; ) {
        const res = await app(
          httpEvent('GET', `/v1/accounts/${accountId}/journal`, {
            principal: PRINCIPAL,
            query: { afterSequence: String(after), limit: '1000' },
          }),
        );
        if (res.statusCode !== 200) throw new Error(`journal: ${res.statusCode} ${res.body}`);
        const page = JSON.parse(res.body) as {
          items: Record<string, unknown>[];
          nextAfterSequence: number | null;
        };
        records.push(...page.items);
        after = page.nextAfterSequence;
      }
      return records;
    },
    async entries(accountId) {
      const items: Record<string, unknown>[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 100; page++) {
        const query: Record<string, string> = { limit: '100', ...(cursor ? { cursor } : {}) };
        const res = await app(
          httpEvent('GET', `/v1/accounts/${accountId}/transactions`, {
            principal: PRINCIPAL,
            query,
          }),
        );
        if (res.statusCode !== 200) throw new Error(`listing: ${res.statusCode} ${res.body}`);
        const body = JSON.parse(res.body) as {
          items: Record<string, unknown>[];
          nextCursor: string | null;
        };
        items.push(...body.items);
        if (body.nextCursor === null) return items;
        cursor = body.nextCursor;
      }
      throw new Error('more than 100 pages of entries');
    },
  };
}

/** One ledger under faults per test file: started before its tests, closed after them. */
export function ledgerPerFile(seed: number, options?: LedgerOptions): () => LedgerUnderFaults {
  let ledger: LedgerUnderFaults | undefined;
  beforeAll(async () => {
    ledger = await ledgerUnderFaults(seed, options);
  });
  afterAll(() => ledger?.close());
  return () => {
    if (!ledger) throw new Error('the ledger under faults is not started yet');
    return ledger;
  };
}

/** POST as the test principal. */
export function post(app: HttpHandler, path: string, key: string, body: unknown) {
  return app(httpEvent('POST', path, { principal: PRINCIPAL, idempotencyKey: key, body }));
}

/**
 * A caller's retry loop: same key and body until a final answer, at most `attempts` times, with
 * a short random pause between tries (a caller that retries at once only adds contention).
 * Through the contention layer a request makes several transaction attempts, each of which the
 * fault proxy may lose, so a loaded machine sees long runs of 503s before the final answer.
 * `retryable` says which answers it sends again: by default what the contract says to retry.
 */
export async function postUntilFinal(
  app: HttpHandler,
  path: string,
  key: string,
  body: unknown,
  attempts = 25,
  retryable: (result: HttpResult) => boolean = isRetryable,
): Promise<{ result: HttpResult; attempts: number; transient: number[] }> {
  const transient: number[] = [];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const result = await post(app, path, key, body);
    if (!retryable(result)) return { result, attempts: attempt, transient };
    transient.push(result.statusCode);
    await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80));
  }
  throw new Error(`${key}: no final answer in ${attempts} attempts (${transient.join(', ')})`);
}

/** What the contract tells a caller to retry: 5xx, and 409 idempotency_key_in_use. */
export function isRetryable(result: HttpResult): boolean {
  return result.statusCode >= 500 || isKeyInUse(result);
}

/** `409 idempotency_key_in_use`: another request with the key is still being processed. */
export function isKeyInUse(result: HttpResult): boolean {
  return result.statusCode === 409 && result.body.includes('"idempotency_key_in_use"');
}

export async function createAccount(
  app: HttpHandler,
  currency = 'EUR',
  overdraftLimit?: number,
): Promise<string> {
  const { result } = await postUntilFinal(app, '/v1/accounts', `acct-${randomUUID()}`, {
    currency,
    ...(overdraftLimit ? { overdraftLimit } : {}),
  });
  if (result.statusCode !== 201) throw new Error(`create account: ${result.statusCode}`);
  return (JSON.parse(result.body) as { id: string }).id;
}
