import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, it } from 'vitest';
import type { HttpResult } from '../../../functions/api/types';
import { silentLog } from '../../../functions/domain/shared/log';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { testConfig } from '../../support/config';
import { createTestTable } from '../../support/dynamo';
import { bodyOf, ledgerApi } from '../../support/ledger-api';
import { assertWithinBudget } from '../../support/model/budget';
import { type ModelEnvironment, planArb, runPlan } from '../../support/model/model-driver';

/**
 * Model-based on DynamoDB Local (docs/contract.md §16, §17): random concurrent rounds of every
 * command — ledger transactions of up to four legs, reversals racing each other, an account that
 * may overdraw, closings — against the reference model (test/support/model/ledger-model.ts). The fault
 * suite runs the same driver through a fault proxy (test/faults/model.test.ts).
 */
let client: DynamoDBClient;
let drop: () => Promise<void>;
let api: ReturnType<typeof ledgerApi>;

beforeAll(async () => {
  let tableName: string;
  ({ client, tableName, drop } = await createTestTable());
  const app = composeHttpHandler({
    dynamo: client,
    config: testConfig({ tableName }),
    callbackSecrets: staticCallbackSecrets('{}'),
    log: silentLog,
  });
  api = ledgerApi(app, 'model-owner');
});
afterAll(() => drop());

/** A caller's retry loop: 409 idempotency_key_in_use and 5xx are retried with the same key. */
async function send(path: string, key: string, body: unknown): Promise<HttpResult> {
  for (let attempt = 1; ; attempt++) {
    const res = await api.post(path, body, key);
    const retry = res.statusCode >= 500 || res.body.includes('"idempotency_key_in_use"');
    if (!retry || attempt === 10) return res;
  }
}

it('agrees with the reference model on every outcome, balance, entry and reversal', async () => {
  const env: ModelEnvironment = {
    send,
    account: (overdraftLimit) =>
      api.accountWith(overdraftLimit > 0 ? { overdraftLimit } : {}, 0, 'model-owner'),
    verify: {
      async money(accountId) {
        const body = bodyOf(await api.get(`/v1/accounts/${accountId}`));
        return {
          balance: Number(body.balance),
          available: Number(body.available),
          status: String(body.status),
          version: Number(body.version),
        };
      },
      async entries(accountId) {
        const items: Record<string, unknown>[] = [];
        let cursor: string | undefined;
        do {
          const query: Record<string, string> = { limit: '100', ...(cursor ? { cursor } : {}) };
          const page = bodyOf(
            await api.get(`/v1/accounts/${accountId}/transactions`, undefined, query),
          );
          items.push(...(page.items as Record<string, unknown>[]));
          cursor = (page.nextCursor as string | null) ?? undefined;
        } while (cursor);
        return items;
      },
      async read(path) {
        return bodyOf(await api.get(path));
      },
    },
    overdraft: [0, 200, 0, 0],
  };
  // Fewer runs under load rather than a long file (assertWithinBudget).
  await assertWithinBudget(planArb(env.overdraft.length), (plan) => runPlan(env, plan), {
    numRuns: 30,
  });
}, 90_000);
