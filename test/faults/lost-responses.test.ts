import { describe, expect, it } from 'vitest';
import { createAccount, ledgerPerFile, postUntilFinal } from './support/ledger';

/**
 * DynamoDB commits, the answer never arrives: the SDK (and then the caller) retries with the
 * same ClientRequestToken / Idempotency-Key. Each key must still have exactly one effect.
 */
const ledgerOf = ledgerPerFile(30);

const REQUESTS = 60;
const CONCURRENCY = 6;

describe('lost TransactWriteItems responses (30 %)', () => {
  it('ends every request 2xx with one entry per key and an exact balance', async () => {
    const ledger = ledgerOf();
    const accountId = await createAccount(ledger.app);
    ledger.proxy.loseTransactResponses(0.3);
    const path = `/v1/accounts/${accountId}/transactions`;
    const requests = Array.from({ length: REQUESTS }, (_, i) => ({
      key: `lost-${i}`,
      body: { type: 'credit', amount: 100 + i, currency: 'EUR', reference: `r${i}` },
    }));

    const outcomes: Awaited<ReturnType<typeof postUntilFinal>>[] = [];
    for (let start = 0; start < requests.length; start += CONCURRENCY) {
      const slice = requests.slice(start, start + CONCURRENCY);
      outcomes.push(
        ...(await Promise.all(slice.map((r) => postUntilFinal(ledger.app, path, r.key, r.body)))),
      );
    }
    ledger.proxy.loseTransactResponses(0);

    // The faults really happened, and some reached the caller as 5xx that it retried.
    expect(ledger.proxy.stats.lostResponses).toBeGreaterThanOrEqual(REQUESTS * 0.15);
    expect(outcomes.map((o) => o.result.statusCode)).toEqual(requests.map(() => 201));

    const entries = await ledger.verify.entries(accountId);
    expect(entries).toHaveLength(REQUESTS);
    const byReference = new Map(entries.map((e) => [e.reference, e]));
    expect(byReference.size).toBe(REQUESTS);
    // Each caller's final body names the one entry its key created.
    outcomes.forEach((outcome, i) => {
      const body = JSON.parse(outcome.result.body) as { id: string; amount: number };
      expect(byReference.get(`r${i}`)).toMatchObject({ id: body.id, amount: 100 + i });
    });
    const expected = requests.reduce((sum, r) => sum + r.body.amount, 0);
    expect(await ledger.verify.balance(accountId)).toBe(expected);
    console.log(
      `lost responses: ${ledger.proxy.stats.lostResponses} of ${REQUESTS} keys; ` +
        `caller retries: ${outcomes.reduce((n, o) => n + o.attempts - 1, 0)}`,
    );
  });
});
