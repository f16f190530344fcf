import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WriteResult } from '../../../../functions/domain/accounts/port';
import type { IdempotencyRecord } from '../../../../functions/domain/idempotency/model';
import type { IdempotencyClaim } from '../../../../functions/domain/idempotency/port';
import { requestOnce } from '../../../../functions/domain/movements/once';
import {
  SettledResponseCache,
  withSettledMovements,
} from '../../../../functions/domain/movements/settled-responses';
import { epochSeconds } from '../../../../functions/domain/shared/time';
import { fakeMovementPort } from '../../../support/fakes/ledger/movements';

const T0 = Date.UTC(2026, 10, 30, 12, 0, 0);

const record = (body = '{"id":"e1"}', expiresAt = epochSeconds(T0) + 60): IdempotencyRecord => ({
  fingerprint: 'f1',
  statusCode: 201,
  body,
  expiresAt,
});

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());

describe('SettledResponseCache', () => {
  it('serves a settled record until its expiresAt, then never again', () => {
    const cache = new SettledResponseCache();
    cache.remember('k', record());
    vi.advanceTimersByTime(59_000);
    expect(cache.get('k')).toEqual(record());
    vi.advanceTimersByTime(1_000); // now == expiresAt
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('does not keep a record that has already expired', () => {
    const cache = new SettledResponseCache();
    cache.remember('k', record('{}', epochSeconds(T0)));
    expect(cache.size).toBe(0);
  });

  it('keeps the first record of a key: settled responses are immutable until they expire', () => {
    const cache = new SettledResponseCache();
    cache.remember('k', record('{"first":true}'));
    cache.remember('k', record('{"second":true}'));
    expect(cache.get('k')?.body).toBe('{"first":true}');
    vi.advanceTimersByTime(60_000);
    cache.remember('k', record('{"after":true}', epochSeconds(T0) + 120));
    expect(cache.get('k')?.body).toBe('{"after":true}');
  });

  it('evicts the least recently used entry beyond the entry cap', () => {
    const cache = new SettledResponseCache({ maxEntries: 2 });
    cache.remember('a', record());
    cache.remember('b', record());
    cache.get('a'); // a is now more recent than b
    cache.remember('c', record());
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.size).toBe(2);
  });

  it('stays under the byte cap, evicting oldest first, and skips a body larger than the cap', () => {
    const body = 'x'.repeat(500);
    const cache = new SettledResponseCache({ maxBytes: 2_500 });
    for (const key of ['a', 'b', 'c']) cache.remember(key, record(body));
    expect(cache.bytes).toBeLessThanOrEqual(2_500);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toBeDefined();
    cache.remember('huge', record('x'.repeat(5_000)));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('c')).toBeDefined();
  });
});

describe('withSettledMovements', () => {
  const claim = (fingerprint = 'f1'): IdempotencyClaim => ({
    scopeId: 'scope',
    fingerprint,
    nowSeconds: epochSeconds(Date.now()),
    expiresAt: epochSeconds(T0) + 60,
    response: { statusCode: 201, body: '{"id":"e1"}' },
  });

  const fakePort = (results: WriteResult[]) =>
    fakeMovementPort({ post: async () => results.shift() ?? { kind: 'committed' } });
  const guard = { ownerId: 'p', currency: 'EUR' };
  const entry = {} as never;
  const posting = { entry, guard };

  it('answers a replay of a key it committed without a storage call, until expiresAt', async () => {
    const port = fakePort([{ kind: 'committed' }]);
    const cached = withSettledMovements(port, new SettledResponseCache());
    expect(await cached.post(requestOnce(claim()), posting)).toEqual({ kind: 'committed' });
    expect(await cached.post(requestOnce(claim('other')), posting)).toEqual({
      kind: 'claimed',
      record: {
        fingerprint: 'f1',
        statusCode: 201,
        body: '{"id":"e1"}',
        expiresAt: epochSeconds(T0) + 60,
      },
    });
    expect(port.post).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    await cached.post(requestOnce(claim()), posting);
    expect(port.post).toHaveBeenCalledTimes(2);
  });

  it('remembers the stored record a claimed write returned', async () => {
    const stored = record('{"id":"older"}');
    const port = fakePort([{ kind: 'claimed', record: stored }]);
    const cached = withSettledMovements(port, new SettledResponseCache());
    await cached.post(requestOnce(claim()), posting);
    expect(await cached.post(requestOnce(claim()), posting)).toEqual({
      kind: 'claimed',
      record: stored,
    });
    expect(port.post).toHaveBeenCalledTimes(1);
  });

  it('remembers nothing for a write that settled nothing', async () => {
    const port = fakePort([{ kind: 'payment_id_taken' }, { kind: 'committed' }]);
    const cached = withSettledMovements(port, new SettledResponseCache());
    await cached.post(requestOnce(claim()), posting);
    await cached.post(requestOnce(claim()), posting);
    expect(port.post).toHaveBeenCalledTimes(2);
  });
});
