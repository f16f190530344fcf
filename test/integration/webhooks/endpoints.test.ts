import { randomUUID } from 'node:crypto';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { MAX_WEBHOOK_ENDPOINTS_PER_PRINCIPAL } from '../../../functions/contract/webhooks';
import { idempotencyScopeId } from '../../../functions/domain/idempotency/fingerprint';
import { OPERATION_IDS } from '../../../functions/domain/idempotency/operations';
import { keys } from '../../../functions/dynamodb/table/keys';
import { webhookKeys } from '../../../functions/dynamodb/webhooks/items';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/** docs/contract.md §32 on a real table: the endpoint routes, owner only, secrets sealed. */
const fixture = useLedgerFixture();
const { api } = fixture;
const PATH = '/v1/webhook-endpoints';
const URL_OK = 'https://hooks.example.com/ledger';
const body = (extra: Record<string, unknown> = {}) => ({
  url: URL_OK,
  events: ['ledger.journal.v1'],
  ...extra,
});
const patch = (path: string, payload: unknown, principal = 'alice') =>
  api.call('PATCH', path, { principal, body: payload });

async function stored(pk: string, sk: string) {
  const { Item } = await fixture.client.send(
    new GetItemCommand({ TableName: fixture.tableName, Key: marshall({ pk, sk }) }),
  );
  return Item ? unmarshall(Item) : undefined;
}

describe('webhook endpoints (docs/contract.md §32)', () => {
  it('creates an endpoint with a secret shown once, replayed, stored only sealed', async () => {
    const key = randomUUID();
    const created = await api.post(PATH, body({ description: 'erp' }), key);
    expect(created.statusCode, created.body).toBe(201);
    const endpoint = bodyOf(created);
    expect(endpoint).toMatchObject({
      url: URL_OK,
      events: ['ledger.journal.v1'],
      accountIds: null,
      description: 'erp',
      status: 'enabled',
    });
    const secret = String(endpoint.secret);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // A usable Standard Webhooks secret.
    expect(() => new Webhook(secret)).not.toThrow();
    const replay = await api.post(PATH, body({ description: 'erp' }), key);
    expect([replay.statusCode, replay.headers['idempotent-replayed']]).toEqual([201, 'true']);
    expect(bodyOf(replay)).toEqual(endpoint);
    const id = String(endpoint.id);
    const item = await stored(webhookKeys.endpoint('alice', id).pk, `ENDPOINT#${id}`);
    const scope = idempotencyScopeId('alice', OPERATION_IDS.createWebhookEndpoint, key);
    const claim = await stored(keys.idempotency(scope).pk, 'IDEMPOTENCY');
    expect(JSON.stringify(item)).not.toContain(secret.slice(6));
    expect(JSON.stringify(claim)).not.toContain(secret.slice(6));
    expect(String(claim?.body)).toContain('"secret":"sealed:');
    const read = bodyOf(await api.get(`${PATH}/${id}`));
    expect(read.secret).toBeUndefined();
    const { secret: _shown, ...view } = endpoint;
    expect(read).toEqual(view);
  });

  it.each([
    ['http scheme', { url: 'http://hooks.example.com/x' }],
    ['another loopback http', { url: 'http://localhost:9000/x' }],
    ['credentials', { url: 'https://user:pw@hooks.example.com/x' }],
    ['a fragment', { url: 'https://hooks.example.com/x#frag' }],
    ['not a URL', { url: 'hooks.example.com' }],
    ['an unknown event', { events: ['ledger.other.v1'] }],
    ['no events', { events: [] }],
    ['* with others', { events: ['*', 'ledger.journal.v1'] }],
    ['a repeated event', { events: ['ledger.journal.v1', 'ledger.journal.v1'] }],
    ['101 accounts', { accountIds: Array.from({ length: 101 }, () => randomUUID()) }],
  ])('refuses %s with 400, unrecorded', async (_, change) => {
    const key = randomUUID();
    const res = await api.post(PATH, body(change), key);
    expect(res.statusCode, res.body).toBe(400);
    expect(bodyOf(res).code).toBe('validation_failed');
    // Not recorded: the corrected request under the same key goes ahead.
    expect((await api.post(PATH, body(), key)).statusCode).toBe(201);
  });

  it('takes http://127.0.0.1 locally, ["*"], and only accounts of the caller', async () => {
    const mine = await api.account();
    const theirs = await api.account(0, 'EUR', 'mallory');
    const local = await api.post(PATH, { url: 'http://127.0.0.1:8123/hook', events: ['*'] });
    expect(local.statusCode, local.body).toBe(201);
    const scoped = await api.post(PATH, body({ accountIds: [mine, mine] }));
    expect(bodyOf(scoped).accountIds).toEqual([mine]);
    for (const other of [theirs, randomUUID()]) {
      const res = await api.post(PATH, body({ accountIds: [mine, other] }));
      expect(res.statusCode).toBe(400);
      expect(bodyOf(res).errors).toEqual([
        { path: 'accountIds.1', message: 'is not an account of yours' },
      ]);
    }
  });

  it("is the owner's only: another principal reads, changes, rotates, deletes nothing", async () => {
    const id = String(bodyOf(await api.post(PATH, body())).id);
    const path = `${PATH}/${id}`;
    expect((await api.get(path, 'mallory')).statusCode).toBe(404);
    expect((await patch(path, { status: 'disabled' }, 'mallory')).statusCode).toBe(404);
    const rotate = await api.post(`${path}/secret-rotations`, {}, randomUUID(), 'mallory');
    expect(rotate.statusCode).toBe(404);
    expect((await api.call('DELETE', path, { principal: 'mallory' })).statusCode).toBe(404);
    const theirs = bodyOf(await api.get(PATH, 'mallory')).items as unknown[];
    expect(theirs.some((e) => (e as { id: string }).id === id)).toBe(false);
    expect(bodyOf(await api.get(path)).status).toBe('enabled');
  });

  it('changes status, events and description with PATCH', async () => {
    const id = String(bodyOf(await api.post(PATH, body({ description: 'd' }))).id);
    const path = `${PATH}/${id}`;
    const disabled = await patch(path, { status: 'disabled', events: ['*'], description: null });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(bodyOf(disabled)).toMatchObject({ status: 'disabled', events: ['*'] });
    expect(bodyOf(disabled).description).toBeUndefined();
    expect(bodyOf(await api.get(path))).toEqual(bodyOf(disabled));
    expect((await patch(path, {})).statusCode).toBe(400);
    expect((await patch(path, { url: URL_OK })).statusCode).toBe(400);
    expect(bodyOf(await patch(path, { status: 'enabled' })).status).toBe('enabled');
  });

  it('rotates: two live secrets, the old one until 24 h later, replayed with the new', async () => {
    const created = bodyOf(await api.post(PATH, body()));
    const path = `${PATH}/${String(created.id)}/secret-rotations`;
    const key = randomUUID();
    const rotated = await api.post(path, {}, key);
    expect(rotated.statusCode, rotated.body).toBe(201);
    const answer = bodyOf(rotated);
    expect(answer.secret).not.toBe(created.secret);
    expect(String(answer.secret)).toMatch(/^whsec_/);
    const overlap = Date.parse(String(answer.previousSecretExpiresAt)) - Date.now();
    expect(overlap).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000);
    expect(bodyOf(await api.post(path, {}, key))).toEqual(answer);
    const again = bodyOf(await api.post(path, {}, randomUUID()));
    const item = await stored(`WEBHOOKS#alice`, `ENDPOINT#${String(created.id)}`);
    const secrets = item?.secrets as { expiresAt?: string }[];
    expect(secrets).toHaveLength(2);
    expect(secrets[0]?.expiresAt).toBeUndefined();
    expect(secrets[1]?.expiresAt).toBe(again.previousSecretExpiresAt);
  });

  it('holds at most 20 per principal, recorded; a delete frees one; deletes once', async () => {
    const owner = `limit-${randomUUID()}`;
    const ids: string[] = [];
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS_PER_PRINCIPAL; i++) {
      const res = await api.post(PATH, body(), randomUUID(), owner);
      expect(res.statusCode, res.body).toBe(201);
      ids.push(String(bodyOf(res).id));
    }
    const key = randomUUID();
    const refused = await api.post(PATH, body(), key, owner);
    expect([refused.statusCode, bodyOf(refused).code]).toEqual([
      409,
      'webhook_endpoint_limit_reached',
    ]);
    expect(bodyOf(await api.get(PATH, owner)).items).toHaveLength(20);
    const gone = `${PATH}/${ids[0]}`;
    expect((await api.call('DELETE', gone, { principal: owner })).statusCode).toBe(204);
    expect((await api.call('DELETE', gone, { principal: owner })).statusCode).toBe(404);
    expect((await api.get(gone, owner)).statusCode).toBe(404);
    // The refusal was recorded: its key replays it; a new key takes the freed place.
    expect((await api.post(PATH, body(), key, owner)).statusCode).toBe(409);
    expect((await api.post(PATH, body(), randomUUID(), owner)).statusCode).toBe(201);
  });
});
