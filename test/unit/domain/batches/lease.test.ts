import { describe, expect, it } from 'vitest';
import { LEDGER_FUNCTION_TIMEOUT_SECONDS } from '../../../../functions/contract/http';
import type { BatchOperation } from '../../../../functions/domain/batches/model';
import type { IdempotencyRecord } from '../../../../functions/domain/idempotency/model';
import {
  IdempotencyKeyInUseError,
  UnavailableError,
} from '../../../../functions/domain/shared/errors';
import { withInvocation } from '../../../../functions/domain/shared/invocation';
import { currentDeadline } from '../../../../functions/domain/shared/retry';
import { batchServiceOn, fakeBatchPort } from '../../../support/fakes/ledger/batches';

/**
 * docs/contract.md §25 "A concurrent copy of a batch": an independent batch runs its operations
 * under a lease of its own key, so two copies never apply them side by side, out of order.
 */
const ctx = { principal: 'alice', idempotencyKey: 'batch-1', now: new Date('2026-12-01T10:00Z') };
const NOW_MS = 1_000_000;
const credit = (key: string): BatchOperation => ({
  op: 'credit',
  key,
  accountId: 'a',
  input: { type: 'credit', amount: 1, currency: 'EUR' },
  rawBody: { type: 'credit', amount: 1, currency: 'EUR' },
});
const independent = { mode: 'independent' as const, operations: [credit('x'), credit('y')] };
const body = { mode: 'independent' };

/** What the first copy recorded under the batch's key, for the same request as `body`. */
async function recordOfFirstCopy(): Promise<IdempotencyRecord> {
  const first = batchServiceOn(fakeBatchPort(), undefined, () => NOW_MS);
  await first.service.createBatch(ctx, independent, body);
  const claim = first.batches.recordResponse.mock.calls[0]?.[0];
  if (!claim) throw new Error('the first copy recorded no answer');
  return { ...claim.response, fingerprint: claim.fingerprint, expiresAt: claim.expiresAt };
}

const held = async () => ({ kind: 'held' as const, expiresAtMs: 0 });

describe('an independent batch’s lease of its key', () => {
  it('is taken before any operation runs, for the deployed timeout without a context', async () => {
    const { service, batches } = batchServiceOn(fakeBatchPort(), undefined, () => NOW_MS);
    await service.createBatch(ctx, independent, body);
    const [lease, now] = batches.takeLease.mock.calls[0] ?? [];
    expect(now).toBe(NOW_MS);
    expect(lease?.expiresAtMs).toBe(NOW_MS + LEDGER_FUNCTION_TIMEOUT_SECONDS * 1000);
    const [taken] = batches.takeLease.mock.invocationCallOrder;
    const [written] = batches.writeMovements.mock.invocationCallOrder;
    expect(taken).toBeLessThan(written ?? 0);
  });

  it('lasts the invocation; the writes stop 1.5 s before its end (§36)', async () => {
    let deadline: number | undefined;
    const batches = fakeBatchPort({
      writeMovements: async () => {
        deadline = currentDeadline();
        return { kind: 'committed' };
      },
    });
    const { service } = batchServiceOn(batches, undefined, () => NOW_MS);
    const invocation = { startedAtMs: NOW_MS - 500, endsAtMs: NOW_MS + 4_000 };
    await withInvocation(invocation, () => service.createBatch(ctx, independent, body));
    expect(batches.takeLease.mock.calls[0]?.[0].expiresAtMs).toBe(NOW_MS + 4_000);
    expect(deadline).toBe(NOW_MS + 2_500);
  });

  it('stops the writes 29 s after the request started when the function has longer', async () => {
    let deadline: number | undefined;
    const batches = fakeBatchPort({
      writeMovements: async () => {
        deadline = currentDeadline();
        return { kind: 'committed' };
      },
    });
    const { service } = batchServiceOn(batches, undefined, () => NOW_MS);
    const invocation = { startedAtMs: NOW_MS - 5_000, endsAtMs: NOW_MS + 60_000 };
    await withInvocation(invocation, () => service.createBatch(ctx, independent, body));
    expect(deadline).toBe(NOW_MS + 24_000);
  });

  it('held: Retry-After is the held lease’s remaining seconds, rounded up (§31)', async () => {
    const until = async () => ({ kind: 'held' as const, expiresAtMs: NOW_MS + 2_300 });
    const { service } = batchServiceOn(
      fakeBatchPort({ takeLease: until }),
      undefined,
      () => NOW_MS,
    );
    const error = await service.createBatch(ctx, independent, body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyKeyInUseError);
    expect((error as IdempotencyKeyInUseError).retryAfterSeconds).toBe(3);
  });

  it('held by another copy: 409 idempotency_key_in_use, nothing run or recorded', async () => {
    const { service, batches, ledger } = batchServiceOn(fakeBatchPort({ takeLease: held }));
    await expect(service.createBatch(ctx, independent, body)).rejects.toBeInstanceOf(
      IdempotencyKeyInUseError,
    );
    // The record was read again after the lease was found held.
    expect(batches.findRecord).toHaveBeenCalledTimes(2);
    expect(batches.writeMovements).not.toHaveBeenCalled();
    expect(ledger.post).not.toHaveBeenCalled();
    expect(batches.recordResponse).not.toHaveBeenCalled();
    expect(batches.releaseLease).not.toHaveBeenCalled();
  });

  it('held, but the holder has just answered: the replay of its answer', async () => {
    const record = await recordOfFirstCopy();
    let reads = 0;
    const batches = fakeBatchPort({
      takeLease: held,
      findRecord: async () => (reads++ === 0 ? undefined : record),
    });
    const { service } = batchServiceOn(batches);
    const answer = await service.createBatch(ctx, independent, body);
    expect(answer).toEqual({ statusCode: record.statusCode, body: record.body, replayed: true });
    expect(batches.writeMovements).not.toHaveBeenCalled();
  });

  it('taken after a copy finished: the record read once more replays it, and the lease goes', async () => {
    const record = await recordOfFirstCopy();
    let reads = 0;
    const batches = fakeBatchPort({
      findRecord: async () => (reads++ === 0 ? undefined : record),
    });
    const { service, ledger } = batchServiceOn(batches);
    const answer = await service.createBatch(ctx, independent, body);
    expect(answer.replayed).toBe(true);
    expect(batches.writeMovements).not.toHaveBeenCalled();
    expect(ledger.post).not.toHaveBeenCalled();
    expect(batches.releaseLease).toHaveBeenCalledTimes(1);
  });

  it('is released on its token once the answer is recorded', async () => {
    const { service, batches } = batchServiceOn();
    const answer = await service.createBatch(ctx, independent, body);
    expect(answer).toMatchObject({ statusCode: 200, replayed: false });
    const [taken] = batches.takeLease.mock.calls[0] ?? [];
    expect(batches.releaseLease.mock.calls).toEqual([[taken]]);
    const [recorded] = batches.recordResponse.mock.invocationCallOrder;
    const [released] = batches.releaseLease.mock.invocationCallOrder;
    expect(recorded).toBeLessThan(released ?? 0);
  });

  it('is released when the batch fails too, and a failed release leaves the answer as it is', async () => {
    const failing = batchServiceOn(
      fakeBatchPort({ recordResponse: async () => Promise.reject(new UnavailableError()) }),
    );
    await expect(failing.service.createBatch(ctx, independent, body)).rejects.toBeInstanceOf(
      UnavailableError,
    );
    expect(failing.batches.releaseLease).toHaveBeenCalledTimes(1);

    const { service } = batchServiceOn(
      fakeBatchPort({ releaseLease: async () => Promise.reject(new UnavailableError()) }),
    );
    await expect(service.createBatch(ctx, independent, body)).resolves.toMatchObject({
      statusCode: 200,
    });
  });

  it('is not taken by an atomic batch: its claim commits with its operations', async () => {
    const { service, batches } = batchServiceOn();
    await service.createBatch(ctx, { ...independent, mode: 'atomic' }, { mode: 'atomic' });
    expect(batches.writeMovements).toHaveBeenCalled();
    expect(batches.takeLease).not.toHaveBeenCalled();
  });
});
