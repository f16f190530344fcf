import { randomUUID } from 'node:crypto';
import type { JournalRecord } from '../../../functions/domain/journal/model';

/**
 * A caller of the local stack over real HTTP that survives the stack dying: connection
 * errors, 5xx and 409 idempotency_key_in_use are retried with the same key against whatever
 * base URL the stack has now (a restarted stack listens on a new port).
 */
export interface StackClient {
  createAccount(): Promise<string>;
  postUntilFinal(
    path: string,
    key: string,
    body: unknown,
  ): Promise<{ status: number; body: string }>;
  balance(accountId: string): Promise<number>;
  /** A JSON read that must answer 200, retried like every call. */
  get<T>(path: string): Promise<T>;
  /** Balance, available and version as GET /v1/accounts/{id} shows them. */
  account(accountId: string): Promise<{ balance: number; available: number; version: number }>;
  entries(accountId: string): Promise<Record<string, unknown>[]>;
  /** Every journal record of the account (docs/contract.md §15), page by page. */
  journal(accountId: string): Promise<JournalRecord[]>;
}

const PRINCIPAL = 'fault-tester';

interface EntryPage {
  items: Record<string, unknown>[];
  nextCursor: string | null;
}
const ATTEMPTS = 300;
const PAUSE_MS = 100;
const REQUEST_TIMEOUT_MS = 5_000;

export function stackClient(base: () => string): StackClient {
  async function call(method: string, path: string, key?: string, body?: unknown) {
    const res = await fetch(`${base()}${path}`, {
      method,
      headers: {
        'x-principal-id': PRINCIPAL,
        ...(key ? { 'idempotency-key': key } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { status: res.status, body: await res.text() };
  }

  /** Retries what a careful caller retries, at most ATTEMPTS times (~30 s). */
  async function untilFinal(method: string, path: string, key?: string, body?: unknown) {
    let last = 'no attempt';
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        const answer = await call(method, path, key, body);
        const inUse = answer.status === 409 && answer.body.includes('"idempotency_key_in_use"');
        if (answer.status < 500 && !inUse) return answer;
        last = `${answer.status} ${answer.body}`;
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
      }
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
    throw new Error(`${method} ${path}: no final answer after ${ATTEMPTS} attempts (${last})`);
  }

  async function readJson<T>(path: string): Promise<T> {
    const answer = await untilFinal('GET', path);
    if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${answer.body}`);
    return JSON.parse(answer.body) as T;
  }

  return {
    async createAccount() {
      const answer = await untilFinal('POST', '/v1/accounts', `acct-${randomUUID()}`, {
        currency: 'EUR',
      });
      if (answer.status !== 201) throw new Error(`create account: ${answer.status}`);
      return (JSON.parse(answer.body) as { id: string }).id;
    },
    postUntilFinal: (path, key, body) => untilFinal('POST', path, key, body),
    get: (path) => readJson(path),
    async balance(accountId) {
      return (await readJson<{ balance: number }>(`/v1/accounts/${accountId}`)).balance;
    },
    account: (accountId) =>
      readJson<{ balance: number; available: number; version: number }>(
        `/v1/accounts/${accountId}`,
      ),
    async journal(accountId) {
      const records: JournalRecord[] = [];
      let after: number | null = 0;
      while (after !== null) {
        const page: { items: JournalRecord[]; nextAfterSequence: number | null } = await readJson(
          `/v1/accounts/${accountId}/journal?afterSequence=${after}&limit=1000`,
        );
        records.push(...page.items);
        after = page.nextAfterSequence;
      }
      return records;
    },
    async entries(accountId) {
      const items: Record<string, unknown>[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 100; page++) {
        const query: string = `limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const body = await readJson<EntryPage>(`/v1/accounts/${accountId}/transactions?${query}`);
        items.push(...body.items);
        cursor = body.nextCursor;
        if (cursor === null) return items;
      }
      throw new Error('more than 100 pages of entries');
    },
  };
}
