import {
  DynamoDBClient,
  type TransactWriteItem,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  IdempotencyKeyInUseError,
  UnavailableError,
} from '../../../../functions/domain/shared/errors';
import { LatencyEstimate, withDeadline } from '../../../../functions/domain/shared/retry';
import {
  type RetryPolicy,
  retryPolicy,
  transactWithRetry,
} from '../../../../functions/dynamodb/table/transact';
import { cancelled, conditionFailed, none } from '../../../support/sdk/cancellation';

const dynamo = mockClient(DynamoDBClient);
const client = new DynamoDBClient({ region: 'eu-west-1' });
const item: TransactWriteItem = { Put: { TableName: 't', Item: { pk: { S: 'a' } } } };
const parts = [
  { role: 'claim' as const, item, decisive: true },
  { role: 'account' as const, item },
];
const conflict = { Code: 'TransactionConflict' };

/** A policy on a clock that only moves when the loop sleeps or an attempt takes time. */
function clockedPolicy(extra: Partial<RetryPolicy> = {}) {
  let now = 5_000_000;
  const sleeps: number[] = [];
  const policy = retryPolicy({
    client,
    tableName: 't',
    retry: {
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
      random: () => 0.5,
      ...extra,
    },
  });
  return { policy, sleeps, tick: (ms: number) => (now += ms), now: () => now };
}

beforeEach(() => dynamo.reset());

describe('transactWithRetry: retries that converge', () => {
  it('retries conflicts and throttling until the transaction commits', async () => {
    dynamo
      .on(TransactWriteItemsCommand)
      .rejectsOnce(cancelled(none, conflict))
      .rejectsOnce(cancelled({ Code: 'ThrottlingError' }, none))
      .resolves({});
    const reasons: string[] = [];
    const { policy } = clockedPolicy({ onRetry: (r) => reasons.push(r) });
    await expect(transactWithRetry(client, parts, policy)).resolves.toEqual({ kind: 'committed' });
    expect(reasons).toEqual(['TransactionConflict', 'ThrottlingError']);
    const tokens = dynamo
      .commandCalls(TransactWriteItemsCommand)
      .map((c) => c.args[0].input.ClientRequestToken);
    expect(new Set(tokens).size).toBe(3);
  });

  it('keeps retrying for its whole time budget, not a fixed handful of attempts', async () => {
    dynamo.on(TransactWriteItemsCommand).rejects(cancelled(none, conflict));
    const { policy, now } = clockedPolicy({ budgetMs: 3_000 });
    const start = now();
    await expect(transactWithRetry(client, parts, policy)).rejects.toBeInstanceOf(UnavailableError);
    expect(now() - start).toBeLessThanOrEqual(3_000);
    expect(now() - start).toBeGreaterThan(2_000);
    expect(dynamo.commandCalls(TransactWriteItemsCommand).length).toBeGreaterThan(6);
  });

  it('stops at the invocation deadline and names contention on the claim as key in use', async () => {
    dynamo.on(TransactWriteItemsCommand).rejects(cancelled(conflict, none));
    const { policy, now } = clockedPolicy({ budgetMs: 60_000 });
    const deadline = now() + 800;
    await expect(
      withDeadline(deadline, () => transactWithRetry(client, parts, policy)),
    ).rejects.toBeInstanceOf(IdempotencyKeyInUseError);
    expect(now()).toBeLessThanOrEqual(deadline);
  });

  it('bases its pauses on the time its commits take', async () => {
    const latency = new LatencyEstimate(1);
    const { policy, sleeps, tick } = clockedPolicy({ latency, baseDelayMs: 1 });
    dynamo.on(TransactWriteItemsCommand).callsFakeOnce(async () => {
      tick(80); // this commit took 80 ms
      return {};
    });
    await transactWithRetry(client, parts, policy);
    expect(latency.value).toBe(80);
    // Every commit below takes 80 ms too, so the estimate stays one commit time.
    const conflictThenCommit = () => {
      dynamo.reset();
      dynamo
        .on(TransactWriteItemsCommand)
        .rejectsOnce(cancelled(none, conflict))
        .callsFake(async () => {
          tick(80);
          return {};
        });
    };
    conflictThenCommit();
    await transactWithRetry(client, parts, policy);
    // A held item: jitter centred on the first bound, one commit time: (0.5 + 0.5) × 80.
    expect(sleeps).toEqual([80]);
    conflictThenCommit();
    await transactWithRetry(client, parts, { ...policy, conflictJitter: 'full' });
    // Full jitter below it (today's baseline in the bench): 0.5 × 80.
    expect(sleeps).toEqual([80, 40]);
  });

  it('settles at once when the decisive claim failed, whatever else conflicted', async () => {
    dynamo.on(TransactWriteItemsCommand).rejects(cancelled(conditionFailed({ pk: 'x' }), conflict));
    const { policy } = clockedPolicy();
    const outcome = await transactWithRetry(client, parts, policy);
    expect(outcome.kind).toBe('conditions_failed');
    expect(dynamo.commandCalls(TransactWriteItemsCommand)).toHaveLength(1);
  });
});
