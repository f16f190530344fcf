import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../functions/config';

describe('loadConfig', () => {
  it('applies the contract defaults', () => {
    expect(loadConfig({ TABLE_NAME: 'ledger' })).toEqual({
      tableName: 'ledger',
      idempotencyRetentionSeconds: 86_400,
      inboxRetentionSeconds: 2_592_000,
      exportFee: 100,
      callbackApplicationId: 'export-worker',
      idempotencyLocalCache: true,
    });
  });

  it.each([
    ['off', false],
    ['on', true],
  ])('reads IDEMPOTENCY_LOCAL_CACHE=%s', (value, enabled) => {
    expect(loadConfig({ TABLE_NAME: 't', IDEMPOTENCY_LOCAL_CACHE: value })).toMatchObject({
      idempotencyLocalCache: enabled,
    });
  });

  it('reads overrides', () => {
    const config = loadConfig({
      TABLE_NAME: 't',
      IDEMPOTENCY_RETENTION_SECONDS: '60',
      INBOX_RETENTION_SECONDS: '120',
      EXPORT_FEE: '5',
    });
    expect(config).toMatchObject({
      idempotencyRetentionSeconds: 60,
      inboxRetentionSeconds: 120,
      exportFee: 5,
    });
  });

  it.each([
    [{}, /TABLE_NAME/],
    [{ TABLE_NAME: 't', IDEMPOTENCY_RETENTION_SECONDS: '0' }, /IDEMPOTENCY_RETENTION_SECONDS/],
    [{ TABLE_NAME: 't', INBOX_RETENTION_SECONDS: '1.5' }, /INBOX_RETENTION_SECONDS/],
    [{ TABLE_NAME: 't', EXPORT_FEE: 'ten' }, /EXPORT_FEE/],
    [{ TABLE_NAME: 't', CALLBACK_APPLICATION_ID: 'has space' }, /CALLBACK_APPLICATION_ID/],
    [{ TABLE_NAME: 't', IDEMPOTENCY_LOCAL_CACHE: 'false' }, /IDEMPOTENCY_LOCAL_CACHE/],
  ])('fails loudly on %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
