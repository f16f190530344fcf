import { describe, expect, it } from 'vitest';
import { readLocalSettings } from '../../../local/settings';

describe('local stack settings', () => {
  it('uses the contract defaults when nothing is set', () => {
    expect(readLocalSettings({})).toEqual({
      port: 3000,
      dynamoPort: 8000,
      dynamoEndpoint: undefined,
      config: {
        tableName: 'ledger',
        idempotencyRetentionSeconds: 86_400,
        inboxRetentionSeconds: 2_592_000,
        exportFee: 100,
      },
    });
  });

  it('reads every variable it honours, treating empty values as unset', () => {
    const settings = readLocalSettings({
      PORT: '4000',
      DYNAMODB_PORT: '',
      DYNAMODB_ENDPOINT: 'http://localhost:9000/',
      TABLE_NAME: 'ledger-dev',
      IDEMPOTENCY_RETENTION_SECONDS: '60',
      INBOX_RETENTION_SECONDS: '120',
      EXPORT_FEE: '7',
    });

    expect(settings).toEqual({
      port: 4000,
      dynamoPort: 8000,
      dynamoEndpoint: 'http://localhost:9000',
      config: {
        tableName: 'ledger-dev',
        idempotencyRetentionSeconds: 60,
        inboxRetentionSeconds: 120,
        exportFee: 7,
      },
    });
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be a port number/],
    [{ PORT: '70000' }, /PORT must be a port number/],
    [{ DYNAMODB_PORT: '0' }, /DYNAMODB_PORT must be a port number/],
    [{ DYNAMODB_ENDPOINT: 'localhost:8000' }, /DYNAMODB_ENDPOINT must be an http\(s\) URL/],
    [{ DYNAMODB_ENDPOINT: 'not a url' }, /DYNAMODB_ENDPOINT must be a URL/],
    [{ IDEMPOTENCY_RETENTION_SECONDS: '-1' }, /IDEMPOTENCY_RETENTION_SECONDS/],
  ])('rejects %o', (env, message) => {
    expect(() => readLocalSettings(env)).toThrow(message);
  });
});
