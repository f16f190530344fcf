import { randomUUID } from 'node:crypto';
import { type DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_LIST } from '../../../functions/api/routes';
import { routeKey } from '../../../functions/api/spec';
import type { HttpResult } from '../../../functions/api/types';
import { idempotencyScopeId } from '../../../functions/domain/idempotency/fingerprint';
import { silentLog } from '../../../functions/domain/shared/log';
import { keys } from '../../../functions/dynamodb/table/keys';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { testConfig } from '../../support/config';
import { createTestTable } from '../../support/dynamo';
import { bodyOf, ledgerApi } from '../../support/ledger-api';

/**
 * The idempotency operation id a spec declares is the one its command stores: the record of a
 * request sits under (principal, spec.idempotency, key), and a first success answers the spec's
 * status. A service that scoped its claim under another id fails here.
 */
let client: DynamoDBClient;
let tableName: string;
let drop: () => Promise<void>;
let api: ReturnType<typeof ledgerApi>;
const PRINCIPAL = 'spec-owner';

beforeAll(async () => {
  ({ client, tableName, drop } = await createTestTable());
  const app = composeHttpHandler({
    dynamo: client,
    config: testConfig({ tableName, idempotencyLocalCache: false }),
    callbackSecrets: staticCallbackSecrets('{}'),
    log: silentLog,
  });
  api = ledgerApi(app, PRINCIPAL);
});
afterAll(() => drop());

/** One request per command, in an order that gives each what it needs; the key it used. */
async function firstRequests(): Promise<Record<string, { key: string; res: HttpResult }>> {
  const sent: Record<string, { key: string; res: HttpResult }> = {};
  const post = async (operationId: string, path: string, body: unknown) => {
    const key = randomUUID();
    const res = await api.post(path, body, key);
    sent[operationId] = { key, res };
    return bodyOf(res);
  };
  const account = String((await post('createAccount', '/v1/accounts', { currency: 'EUR' })).id);
  const credit = { type: 'credit', amount: 10_000, currency: 'EUR' };
  const entry = await post('postTransaction', `/v1/accounts/${account}/transactions`, credit);
  const other = await api.account();
  const transfer = { fromAccountId: account, toAccountId: other, amount: 5, currency: 'EUR' };
  const moved = await post('createTransfer', '/v1/transfers', transfer);
  const legs = [
    { accountId: account, direction: 'debit', amount: 3 },
    { accountId: other, direction: 'credit', amount: 3 },
  ];
  const split = await post('createLedgerTransaction', '/v1/ledger-transactions', {
    currency: 'EUR',
    legs,
  });
  await post('reverseEntry', `/v1/accounts/${account}/transactions/${entry.id}/reversals`, {
    amount: 1,
  });
  await post('reverseTransfer', `/v1/transfers/${moved.id}/reversals`, {});
  await post('reverseLedgerTransaction', `/v1/ledger-transactions/${split.id}/reversals`, {});
  await post('changeSettings', `/v1/accounts/${other}/settings`, { overdraftLimit: 50 });
  const empty = await api.account();
  await post('closeAccount', `/v1/accounts/${empty}/close`, {});
  const hold = { amount: 7, currency: 'EUR', expiresInSeconds: 600 };
  const held = String((await post('placeHold', `/v1/accounts/${account}/holds`, hold)).id);
  await post('captureHold', `/v1/holds/${held}/captures`, {});
  const second = bodyOf(await api.post(`/v1/accounts/${account}/holds`, hold)).id;
  await post('voidHold', `/v1/holds/${second}/voids`, {});
  const monitor = { field: 'balance', operator: 'lt', value: 0 };
  await post('createMonitor', `/v1/accounts/${account}/monitors`, monitor);
  const task = await post('createExport', `/v1/accounts/${account}/exports`, { format: 'csv' });
  // Its first execution still runs: the refusal is recorded, under the rerun's own id.
  await post('rerunTask', `/v1/tasks/${task.id}/reruns`, {});
  const through = new Date(Date.now() - 60_000).toISOString();
  await post('closePeriod', `/v1/accounts/${account}/period-closes`, { through });
  await post('createBatch', '/v1/batches', {
    mode: 'independent',
    operations: [{ key: randomUUID(), op: 'credit', accountId: account, body: credit }],
  });
  const hook = { url: 'https://hooks.example.com/in', events: ['*'] };
  const endpoint = await post('createWebhookEndpoint', '/v1/webhook-endpoints', hook);
  await post('rotateWebhookSecret', `/v1/webhook-endpoints/${endpoint.id}/secret-rotations`, {});
  return sent;
}

describe('idempotent route specs', () => {
  it('store each command under its frozen operation id, answering the spec status first', async () => {
    const sent = await firstRequests();
    const commands = ROUTE_LIST.filter((spec) => spec.idempotency);
    expect(Object.keys(sent).sort()).toEqual(commands.map((spec) => spec.operationId).sort());
    for (const spec of commands) {
      const { key, res } = sent[spec.operationId] ?? {};
      const scope = idempotencyScopeId(PRINCIPAL, spec.idempotency ?? '', key ?? '');
      const { Item } = await client.send(
        new GetItemCommand({ TableName: tableName, Key: marshall(keys.idempotency(scope)) }),
      );
      expect(Item, routeKey(spec)).toBeDefined();
      expect(Number(Item?.statusCode?.N), routeKey(spec)).toBe(res?.statusCode);
      if (spec.operationId === 'rerunTask') {
        expect(bodyOf(res as HttpResult).code).toBe('task_not_terminal');
      } else {
        expect(res?.statusCode, routeKey(spec)).toBe(spec.response.status);
      }
    }
  });
});
