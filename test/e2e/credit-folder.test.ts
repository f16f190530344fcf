import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerClient } from '../../client/index';
import { QUEUE_NAMES } from '../../functions/contract/names';
import { clientFor, key, type LocalStack, startLocalStack } from './support/stack';

/**
 * Deferred credits end to end on `npm start` (docs/contract.md §24): credits into a deferred
 * account over HTTP leave the account untouched, the outbox dispatcher (already on the table's
 * stream) feeds `credit-intake`, and the folder behind its local queue trigger posts them.
 */
let stack: LocalStack;
let alice: LedgerClient;

beforeAll(async () => {
  stack = await startLocalStack();
  alice = clientFor(stack.base, 'alice');
});

afterAll(async () => {
  if (stack) await stack.interrupt();
});

async function accountOf(accountId: string) {
  const { data } = await alice.GET('/v1/accounts/{accountId}', {
    params: { path: { accountId } },
  });
  return { balance: data?.balance ?? 0, version: data?.version ?? 0 };
}

describe('deferred credits on the local stack (docs/contract.md §24)', () => {
  it('prints the folder in the banner and creates its queues', () => {
    expect(stack.output()).toContain(`${QUEUE_NAMES.creditIntake} -> the credit folder`);
    expect(stack.output()).toContain(`/${QUEUE_NAMES.creditIntakeDeadLetter}`);
  });

  it('posts every credit into a deferred account within seconds, each exactly once', async () => {
    const created = await alice.POST('/v1/accounts', {
      params: { header: key(randomUUID()) },
      body: { currency: 'EUR', creditIntake: 'deferred' },
    });
    expect(created.response.status).toBe(201);
    const id = created.data?.id ?? '';
    const amounts = Array.from({ length: 40 }, (_, i) => i + 1);
    await Promise.all(
      amounts.map(async (amount) => {
        const res = await alice.POST('/v1/accounts/{accountId}/transactions', {
          params: { path: { accountId: id }, header: key(randomUUID()) },
          body: { type: 'credit', amount, currency: 'EUR' },
        });
        expect(res.response.status).toBe(201);
      }),
    );
    const answered = Date.now();
    const total = amounts.reduce((a, b) => a + b, 0);
    let seen = await accountOf(id);
    while (seen.balance < total && Date.now() - answered < 20_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen = await accountOf(id);
    }
    expect(seen).toEqual({ balance: total, version: amounts.length });
    // Within 10 s of the last answer (docs/contract.md §24's target).
    expect(Date.now() - answered).toBeLessThan(10_000);
  });
});
