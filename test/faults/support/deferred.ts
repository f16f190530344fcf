import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { expect } from 'vitest';
import type { HttpHandler } from '../../../functions/api/types';
import type { PostingPort } from '../../../functions/domain/intake/port';
import type { JournalRecord } from '../../../functions/domain/journal/model';
import { intakeOf } from '../../support/intake/intake';
import { expectExactJournal } from '../../support/journal/journal';
import { postUntilFinal, type Verify } from './ledger';

/** Deferred credits (docs/contract.md §24) under faults: intake and the checks after posting. */

/** A new `deferred` account of the test principal (EUR). */
export async function deferredAccount(app: HttpHandler, key: string): Promise<string> {
  const { result } = await postUntilFinal(app, '/v1/accounts', key, {
    currency: 'EUR',
    creditIntake: 'deferred',
  });
  if (result.statusCode !== 201) throw new Error(`create deferred account: ${result.statusCode}`);
  return (JSON.parse(result.body) as { id: string }).id;
}

export interface Credited {
  readonly key: string;
  readonly amount: number;
  readonly status: number;
  readonly body: string;
}

/** `count` credits of `first + i` (keys `<prefix>-<i>`), `callers` at once, each until final. */
export async function creditConcurrently(
  app: HttpHandler,
  accountId: string,
  options: { prefix: string; count: number; callers: number; first?: number },
): Promise<Credited[]> {
  const queue = Array.from({ length: options.count }, (_, i) => ({
    key: `${options.prefix}-${i}`,
    amount: (options.first ?? 1) + i,
  }));
  const callers = Array.from({ length: options.callers }, async () => {
    const done: Credited[] = [];
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { result } = await postUntilFinal(
        app,
        `/v1/accounts/${accountId}/transactions`,
        next.key,
        { type: 'credit', amount: next.amount, currency: 'EUR', reference: next.key },
        60,
      );
      done.push({ ...next, status: result.statusCode, body: result.body });
    }
    return done;
  });
  return (await Promise.all(callers)).flat();
}

/** The entry ids the credits were answered with. */
export const answeredIds = (credited: readonly Credited[]): string[] =>
  credited.map((c) => (JSON.parse(c.body) as { id: string }).id).sort();

/**
 * Every answered credit posted exactly once: balance and available = their sum, version = their
 * count, the entries exactly the answered ids (each once, `posted`), no pending item left, the
 * gates at pending 0 having accepted each once.
 */
export async function expectPostedExactly(
  verify: Verify,
  direct: DynamoDBClient,
  tableName: string,
  accountId: string,
  credited: readonly Credited[],
): Promise<void> {
  const sum = credited.reduce((total, c) => total + c.amount, 0);
  const money = await verify.money(accountId);
  expect(money).toMatchObject({ balance: sum, available: sum, version: credited.length });
  const entries = await verify.entries(accountId);
  expect(entries.map((e) => String(e.id)).sort()).toEqual(answeredIds(credited));
  expect(new Set(entries.map((e) => e.status))).toEqual(new Set(['posted']));
  const intake = await intakeOf(direct, tableName, accountId);
  expect({ pending: intake.pending.length, counted: intake.counted }).toEqual({
    pending: 0,
    counted: 0,
  });
  expect(intake.accepted).toBe(credited.length);
}

/** The journal: one exact record per posted credit, each naming its own entry once. */
export function expectJournalPerCredit(
  records: readonly JournalRecord[],
  money: { balance: number; available: number; version: number },
  credited: readonly Credited[],
): void {
  expectExactJournal(records, money);
  expect(records.map((r) => r.entryId).sort()).toEqual(answeredIds(credited));
  for (const record of records) expect(record.acceptedAt).toBeDefined();
}

/**
 * The folder's store with a pause between each read and the writes that follow: a folder that
 * stalls (a slow container, a GC pause, a redelivery running late) posts from a stale read.
 */
export function staleReads(port: PostingPort, pauseMs: number): PostingPort {
  return {
    async readPending(accountId, perShard) {
      const read = await port.readPending(accountId, perShard);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      return read;
    },
    post: port.post,
    setAside: port.setAside,
  };
}
