import { randomUUID } from 'node:crypto';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../../functions/dynamodb/table/keys';
import { Account } from '../../../functions/schemas/accounts';
import { Problem } from '../../../functions/schemas/shared';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/** Account metadata (docs/contract.md §34): its own item, echoed on reads, settings. */
const fixture = useLedgerFixture();
const { api } = fixture;

async function item(key: { pk: string; sk: string }) {
  const { Item } = await fixture.client.send(
    new GetItemCommand({ TableName: fixture.tableName, Key: marshall(key), ConsistentRead: true }),
  );
  return Item ? unmarshall(Item) : undefined;
}

const create = (body: Record<string, unknown>, key = randomUUID()) =>
  api.post('/v1/accounts', { currency: 'EUR', ...body }, key);
const settings = (accountId: string, body: unknown) =>
  api.post(`/v1/accounts/${accountId}/settings`, body);
const read = async (accountId: string) =>
  Account.parse(bodyOf(await api.get(`/v1/accounts/${accountId}`)));

describe('account metadata (docs/contract.md §34)', () => {
  it('is kept in its own item, never on the account item, and echoed on creation and reads', async () => {
    const res = await create({ name: 'Shop', metadata: { order: '42', region: 'eu' } });
    expect(res.statusCode).toBe(201);
    const created = Account.parse(bodyOf(res));
    expect(created.metadata).toEqual({ order: '42', region: 'eu' });
    expect(await read(created.id)).toEqual(created);
    const account = await item(keys.account(created.id));
    expect(account).toBeDefined();
    expect(account).not.toHaveProperty('metadata');
    const own = await item(keys.accountMetadata(created.id));
    expect(own).toMatchObject({ kind: 'account-metadata', ownerId: 'alice' });
    expect(own?.metadata).toEqual({ order: '42', region: 'eu' });
  });

  it('answers an account without metadata as before: no metadata key, no metadata item', async () => {
    const res = await create({});
    const body = bodyOf(res);
    expect(Object.keys(body)).not.toContain('metadata');
    expect(await item(keys.accountMetadata(String(body.id)))).toBeUndefined();
    expect(Object.keys(bodyOf(await api.get(`/v1/accounts/${String(body.id)}`)))).toEqual(
      Object.keys(body),
    );
  });

  it('replays its creation with the metadata it was created with', async () => {
    const key = randomUUID();
    const first = await create({ metadata: { order: '7' } }, key);
    const again = await create({ metadata: { order: '7' } }, key);
    expect(again.body).toBe(first.body);
    const other = await create({ metadata: { order: '8' } }, key);
    expect(Problem.parse(bodyOf(other)).code).toBe('idempotency_key_reused');
  });

  it('settings replace it whole, null clears it; the account item never carries it', async () => {
    const id = String(bodyOf(await create({ metadata: { order: '1', keep: 'x' } })).id);
    const replaced = await settings(id, { metadata: { order: '2' } });
    expect(replaced.statusCode).toBe(200);
    expect(Account.parse(bodyOf(replaced)).metadata).toEqual({ order: '2' });
    expect((await read(id)).metadata).toEqual({ order: '2' });
    expect(await item(keys.account(id))).not.toHaveProperty('metadata');

    const cleared = await settings(id, { metadata: null });
    expect(cleared.statusCode).toBe(200);
    expect(bodyOf(cleared)).not.toHaveProperty('metadata');
    expect(await item(keys.accountMetadata(id))).toBeUndefined();
    expect(await read(id)).not.toHaveProperty('metadata');
  });

  it('keeps metadata through other settings, and the same pairs again change nothing', async () => {
    const id = String(bodyOf(await create({ metadata: { order: '1' } })).id);
    const limit = await settings(id, { overdraftLimit: 100 });
    expect(Account.parse(bodyOf(limit)).metadata).toEqual({ order: '1' });
    const same = await settings(id, { metadata: { order: '1' } });
    expect(Account.parse(bodyOf(same)).updatedAt).toBe(Account.parse(bodyOf(limit)).updatedAt);
  });

  it('refuses empty metadata in settings and on creation (null clears; {} is not a value)', async () => {
    const id = await api.account();
    const res = await settings(id, { metadata: {} });
    expect(Problem.parse(bodyOf(res)).code).toBe('validation_failed');
    expect(Problem.parse(bodyOf(await create({ metadata: {} }))).code).toBe('validation_failed');
  });
});
