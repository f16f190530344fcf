import { describe, expect, it } from 'vitest';
import type { HttpResult } from '../../functions/api/types';
import { httpEvent } from '../../kit/http-event';
import { LEDGER_FUNCTION_TIMEOUT } from '../../lib/constructs/shared/ledger-function';
import type { OutageMode } from '../support/fault-proxy';
import { createAccount, ledgerPerFile, PRINCIPAL, post } from './support/ledger';

/**
 * DynamoDB unavailable (503s, dropped connections, or requests never answered): the HTTP API must
 * answer 503 `unavailable` with Retry-After before the Lambda's timeout, record nothing, and run
 * the same keys normally once DynamoDB is back.
 */
const LAMBDA_TIMEOUT_MS = LEDGER_FUNCTION_TIMEOUT.toMilliseconds();

const ledgerOf = ledgerPerFile(7);

/** Fails instead of hanging when the handler does not answer within the Lambda's timeout. */
async function withinLambdaTimeout(answer: Promise<HttpResult>): Promise<HttpResult> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${LAMBDA_TIMEOUT_MS} ms`)),
      LAMBDA_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([answer, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function expectUnavailable(result: HttpResult): void {
  expect(result.statusCode).toBe(503);
  expect(result.headers['content-type']).toBe('application/problem+json');
  expect(JSON.parse(result.body)).toMatchObject({ status: 503, code: 'unavailable' });
  expect(Number(result.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

describe.each<OutageMode>(['unavailable', 'refuse', 'stall'])('DynamoDB outage (%s)', (mode) => {
  it('answers 503 with Retry-After in time, records nothing, and runs the keys once afterwards', async () => {
    const ledger = ledgerOf();
    const accountId = await createAccount(ledger.app);
    const path = `/v1/accounts/${accountId}/transactions`;
    const seed = await post(ledger.app, path, `${mode}-seed`, {
      type: 'credit',
      amount: 1_000,
      currency: 'EUR',
    });
    expect(seed.statusCode).toBe(201);
    const requests = Array.from({ length: 8 }, (_, i) => ({
      key: `${mode}-${i}`,
      body: { type: i % 2 ? 'debit' : 'credit', amount: 10 + i, currency: 'EUR' },
    }));

    ledger.proxy.outage(mode);
    const turnedAwayBefore = ledger.proxy.stats.turnedAway;
    const during = await Promise.all([
      ...requests.map((r) => withinLambdaTimeout(post(ledger.app, path, r.key, r.body))),
      withinLambdaTimeout(
        ledger.app(httpEvent('GET', `/v1/accounts/${accountId}`, { principal: PRINCIPAL })),
      ),
    ]);
    ledger.proxy.outage(undefined);

    expect(ledger.proxy.stats.turnedAway).toBeGreaterThan(turnedAwayBefore);
    for (const result of during) expectUnavailable(result);
    expect(await ledger.verify.balance(accountId)).toBe(1_000);
    expect(await ledger.verify.entries(accountId)).toHaveLength(1);

    const after = await Promise.all(requests.map((r) => post(ledger.app, path, r.key, r.body)));
    for (const result of after) {
      expect(result.statusCode).toBe(201);
      // A first answer, not a replay: the outage left no idempotency record behind.
      expect(result.headers['idempotent-replayed']).toBeUndefined();
    }
    const net = requests.reduce(
      (sum, r) => sum + (r.body.type === 'credit' ? r.body.amount : -r.body.amount),
      0,
    );
    expect(await ledger.verify.balance(accountId)).toBe(1_000 + net);
    expect(await ledger.verify.entries(accountId)).toHaveLength(1 + requests.length);
  });
});
