import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/**
 * docs/contract.md §31, §36: a retry under a stored key replays while the key is retained, even
 * after its `effectiveAt` aged past BACKDATE_LIMIT_DAYS — an independent or atomic batch as a
 * whole, and each of its operations under a new batch key; a movement never seen at such a time
 * is still refused.
 */

/** The tests' clock; a retention long enough for "days later" (§36). */
const clock = { at: new Date() };
const fixture = useLedgerFixture({
  clock: () => clock.at,
  config: { idempotencyRetentionSeconds: 864_000 },
});
const { api } = fixture;
const DAY = 86_400_000;

describe('a batch retried after its effectiveAt aged (docs/contract.md §31, §36)', () => {
  it.each(['independent', 'atomic'])(
    '%s: replays under its key and under a new one; a new operation at that time is refused',
    async (mode) => {
      const retained = api;
      clock.at = new Date();
      const [a, b] = [await api.account(1_000), await api.account()];
      const effectiveAt = new Date(clock.at.getTime() - 89 * DAY).toISOString();
      const operations = [
        {
          key: randomUUID(),
          op: 'credit',
          accountId: b,
          body: { type: 'credit', amount: 5, currency: 'EUR', effectiveAt },
        },
        {
          key: randomUUID(),
          op: 'transfer',
          body: { fromAccountId: a, toAccountId: b, amount: 7, currency: 'EUR', effectiveAt },
        },
        {
          key: randomUUID(),
          op: 'debit',
          accountId: a,
          body: { type: 'debit', amount: 3, currency: 'EUR', effectiveAt },
        },
      ];
      const body = { mode, operations };
      const batchKey = randomUUID();
      const first = await retained.post('/v1/batches', body, batchKey);
      expect(first.statusCode, first.body).toBe(200);
      clock.at = new Date(clock.at.getTime() + 2 * DAY);

      const again = await retained.post('/v1/batches', body, batchKey);
      expect([again.statusCode, again.body]).toEqual([200, first.body]);

      const resent = await retained.post('/v1/batches', body);
      expect(resent.statusCode, resent.body).toBe(200);
      const results = bodyOf(resent).results as { status: number; replayed?: boolean }[];
      expect(results.map((r) => [r.status, r.replayed])).toEqual([
        [201, true],
        [201, true],
        [201, true],
      ]);

      // Each operation alone, under its own key, replays too.
      const single = await retained.post(
        `/v1/accounts/${b}/transactions`,
        operations[0]?.body,
        operations[0]?.key,
      );
      expect(single.statusCode, single.body).toBe(201);
      expect(single.headers?.['idempotent-replayed']).toBe('true');

      const fresh = {
        key: randomUUID(),
        op: 'credit',
        accountId: b,
        body: { type: 'credit', amount: 1, currency: 'EUR', effectiveAt },
      };
      const mixed = await retained.post('/v1/batches', {
        ...body,
        operations: [...operations, fresh],
      });
      expect(bodyOf(mixed)).toMatchObject({
        code: 'validation_failed',
        errors: [expect.objectContaining({ path: 'body.operations.3.body.effectiveAt' })],
      });
      // Nothing moved twice, nothing new moved.
      expect(await api.money(a)).toEqual({ balance: 990, available: 990 });
      expect(await api.money(b)).toEqual({ balance: 12, available: 12 });

      // A stored aged operation beside a new one of today: it replays, the new one applies.
      const today = {
        ...fresh,
        key: randomUUID(),
        body: { ...fresh.body, effectiveAt: undefined },
      };
      const both = await retained.post('/v1/batches', {
        ...body,
        operations: [operations[0], today],
      });
      expect(both.statusCode, both.body).toBe(200);
      const pair = bodyOf(both).results as { status: number; replayed?: boolean }[];
      expect(pair.map((r) => [r.status, r.replayed === true])).toEqual([
        [201, true],
        [201, false],
      ]);
      expect(await api.money(b)).toEqual({ balance: 13, available: 13 });
    },
  );
});
