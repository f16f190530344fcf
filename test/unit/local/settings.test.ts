import { describe, expect, it } from 'vitest';
import { DEMO_CALLBACK_SECRET } from '../../../functions/contract/local-stack';
import { readLocalSettings } from '../../../local/settings';

describe('local stack settings', () => {
  it('uses the contract defaults when nothing is set', () => {
    expect(readLocalSettings({})).toEqual({
      port: 3000,
      dynamoPort: 8000,
      dynamoEndpoint: undefined,
      sqsPort: 4566,
      sqsEndpoint: undefined,
      sqsVisibilityTimeoutSeconds: 5,
      sweepIntervalSeconds: 2,
      gapRefetchAfterSeconds: 5,
      reconcileIntervalSeconds: 30,
      s3Endpoint: undefined,
      exportWorker: true,
      contention: undefined,
      eventsBatchSize: 10,
      eventsMaxConcurrency: 5,
      // loadConfig owns the rest of the handler configuration.
      config: expect.objectContaining({
        tableName: 'ledger',
        idempotencyRetentionSeconds: 86_400,
        inboxRetentionSeconds: 2_592_000,
        exportFee: 100,
        callbackApplicationId: 'export-worker',
        exportExecutionTimeoutSeconds: 900,
        maxRerunsPerTask: 20,
        exportRetentionDays: 7,
        exportBucket: 'ledger-exports',
      }),
      callbackSecrets: { 'export-worker': [DEMO_CALLBACK_SECRET] },
      callbackSecretsGiven: false,
      webhooks: {
        retries: { baseDelaySeconds: 1, maxDelaySeconds: 60, retryWindowSeconds: 3600 },
        disableAfterFailures: 100,
      },
    });
  });

  it('reads every variable it honours, treating empty values as unset', () => {
    const settings = readLocalSettings({
      PORT: '4000',
      DYNAMODB_PORT: '',
      DYNAMODB_ENDPOINT: 'http://localhost:9000/',
      SQS_PORT: '4577',
      SQS_ENDPOINT: 'http://127.0.0.1:9324/',
      SQS_VISIBILITY_TIMEOUT_SECONDS: '0',
      SWEEP_INTERVAL_SECONDS: '0.5',
      GAP_REFETCH_AFTER_SECONDS: '2',
      RECONCILE_INTERVAL_SECONDS: '7',
      TABLE_NAME: 'ledger-dev',
      IDEMPOTENCY_RETENTION_SECONDS: '60',
      INBOX_RETENTION_SECONDS: '120',
      EXPORT_FEE: '7',
      CALLBACK_SECRETS: '{"billing":["billing-secret-0123456789"]}',
      CALLBACK_APPLICATION_ID: 'billing',
      S3_ENDPOINT: 'http://127.0.0.1:9000/',
      EXPORT_WORKER: 'off',
      EXPORT_EXECUTION_TIMEOUT_SECONDS: '30',
      MAX_RERUNS_PER_TASK: '3',
      EXPORT_RETENTION_DAYS: '2',
      DYNAMODB_CONTENTION: 'on',
      DYNAMODB_CONTENTION_WCU: '40',
      EVENTS_BATCH_SIZE: '100',
      EVENTS_MAX_CONCURRENCY: '8',
    });

    expect(settings).toEqual({
      port: 4000,
      dynamoPort: 8000,
      dynamoEndpoint: 'http://localhost:9000',
      sqsPort: 4577,
      sqsEndpoint: 'http://127.0.0.1:9324',
      sqsVisibilityTimeoutSeconds: 0,
      sweepIntervalSeconds: 0.5,
      gapRefetchAfterSeconds: 2,
      reconcileIntervalSeconds: 7,
      s3Endpoint: 'http://127.0.0.1:9000',
      exportWorker: false,
      contention: { writeUnitsPerSecond: 40 },
      eventsBatchSize: 100,
      eventsMaxConcurrency: 8,
      config: expect.objectContaining({
        tableName: 'ledger-dev',
        idempotencyRetentionSeconds: 60,
        inboxRetentionSeconds: 120,
        exportFee: 7,
        callbackApplicationId: 'billing',
        exportExecutionTimeoutSeconds: 30,
        maxRerunsPerTask: 3,
        exportRetentionDays: 2,
      }),
      callbackSecrets: { billing: ['billing-secret-0123456789'] },
      callbackSecretsGiven: true,
      webhooks: expect.objectContaining({ disableAfterFailures: 100 }),
    });
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be a port number/],
    [{ PORT: '70000' }, /PORT must be a port number/],
    [{ DYNAMODB_PORT: '0' }, /DYNAMODB_PORT must be a port number/],
    [{ DYNAMODB_ENDPOINT: 'localhost:8000' }, /DYNAMODB_ENDPOINT must be an http\(s\) URL/],
    [{ DYNAMODB_ENDPOINT: 'not a url' }, /DYNAMODB_ENDPOINT must be a URL/],
    [{ IDEMPOTENCY_RETENTION_SECONDS: '-1' }, /IDEMPOTENCY_RETENTION_SECONDS/],
    [{ INBOX_RETENTION_SECONDS: '0' }, /INBOX_RETENTION_SECONDS/],
    [{ SQS_PORT: '65536' }, /SQS_PORT must be a port number/],
    [{ SQS_ENDPOINT: 'ftp://127.0.0.1:4566' }, /SQS_ENDPOINT must be an http\(s\) URL/],
    [
      { SQS_VISIBILITY_TIMEOUT_SECONDS: '1.5' },
      /SQS_VISIBILITY_TIMEOUT_SECONDS must be whole seconds/,
    ],
    [{ SQS_VISIBILITY_TIMEOUT_SECONDS: '43201' }, /SQS_VISIBILITY_TIMEOUT_SECONDS/],
    [{ SWEEP_INTERVAL_SECONDS: '0' }, /SWEEP_INTERVAL_SECONDS must be seconds/],
    [{ RECONCILE_INTERVAL_SECONDS: '0' }, /RECONCILE_INTERVAL_SECONDS must be seconds/],
    [{ EXPORT_WORKER: 'maybe' }, /EXPORT_WORKER must be on or off/],
    [{ DYNAMODB_CONTENTION: 'yes' }, /DYNAMODB_CONTENTION must be on or off/],
    [
      { DYNAMODB_CONTENTION: 'on', DYNAMODB_CONTENTION_WCU: '0' },
      /DYNAMODB_CONTENTION_WCU must be a whole number between 1 and/,
    ],
    [{ EVENTS_BATCH_SIZE: '101' }, /EVENTS_BATCH_SIZE must be a whole number between 1 and 100/],
    [{ EVENTS_MAX_CONCURRENCY: '2.5' }, /EVENTS_MAX_CONCURRENCY must be a whole number/],
    [{ S3_ENDPOINT: 'ftp://x' }, /S3_ENDPOINT must be an http\(s\) URL/],
    [{ SWEEP_INTERVAL_SECONDS: 'soon' }, /SWEEP_INTERVAL_SECONDS must be seconds/],
    [{ SWEEP_INTERVAL_SECONDS: '3601' }, /SWEEP_INTERVAL_SECONDS must be seconds/],
    [{ CALLBACK_SECRETS: '{"export-worker":' }, /CALLBACK_SECRETS: callback secrets are not JSON/],
    [
      { CALLBACK_SECRETS: '{"export-worker":["short"]}' },
      /CALLBACK_SECRETS: callback secrets must be/,
    ],
    [{ CALLBACK_APPLICATION_ID: 'no spaces' }, /CALLBACK_APPLICATION_ID/],
    [
      { CALLBACK_PUBLIC_KEYS: '{"export-worker":["sixteen-chars-ok"]}' },
      /CALLBACK_PUBLIC_KEYS: public keys must be/,
    ],
    [
      { CALLBACK_PUBLIC_KEYS: '{"a":["whpk_AAAA"]}' },
      /CALLBACK_PUBLIC_KEYS: callback secrets must/,
    ],
  ])('rejects %o', (env, message) => {
    expect(() => readLocalSettings(env)).toThrow(message);
  });

  it('adds the whpk_ keys of CALLBACK_PUBLIC_KEYS to the applications of CALLBACK_SECRETS', () => {
    const whpk = `whpk_${Buffer.alloc(32, 9).toString('base64')}`;

    const settings = readLocalSettings({
      CALLBACK_PUBLIC_KEYS: JSON.stringify({ 'export-worker': [whpk], partner: [whpk] }),
    });

    expect(settings.callbackSecrets).toEqual({
      'export-worker': [DEMO_CALLBACK_SECRET, whpk],
      partner: [whpk],
    });
  });
});
