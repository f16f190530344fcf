import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../functions/handlers/shared/config';

describe('loadConfig', () => {
  it('applies the contract defaults', () => {
    expect(loadConfig({ TABLE_NAME: 'ledger' })).toEqual({
      tableName: 'ledger',
      idempotencyRetentionSeconds: 86_400,
      inboxRetentionSeconds: 2_592_000,
      exportFee: 100,
      callbackApplicationId: 'export-worker',
      idempotencyLocalCache: true,
      exportExecutionTimeoutSeconds: 900,
      maxRerunsPerTask: 20,
      exportRetentionDays: 7,
      exportBucket: 'ledger-exports',
      journalReaders: [],
    });
  });

  it.each([
    [
      '["arn:aws:sts::123456789012:assumed-role/reconciler","sub-1"]',
      ['arn:aws:sts::123456789012:assumed-role/reconciler', 'sub-1'],
    ],
    [' alice, bob ,,alice', ['alice', 'bob']],
    ['', []],
  ])('reads JOURNAL_READERS=%s (docs/contract.md §15)', (value, readers) => {
    expect(loadConfig({ TABLE_NAME: 't', JOURNAL_READERS: value }).journalReaders).toEqual(readers);
  });

  it('fails loudly on a JOURNAL_READERS that is not a list of principals', () => {
    expect(() => loadConfig({ TABLE_NAME: 't', JOURNAL_READERS: '[oops' })).toThrow(
      /JOURNAL_READERS: must be a JSON array/,
    );
    expect(() => loadConfig({ TABLE_NAME: 't', JOURNAL_READERS: '[1]' })).toThrow(
      /JOURNAL_READERS: must list principals as strings/,
    );
  });

  it('reads the journal projector topic and stage', () => {
    const topic = 'arn:aws:sns:eu-west-1:123456789012:ledger-journal';
    expect(
      loadConfig({ TABLE_NAME: 't', JOURNAL_TOPIC_ARN: topic, STAGE: 'prod' }, 'journalProjector'),
    ).toMatchObject({ journalTopicArn: topic, stage: 'prod' });
  });

  it('reads the export settings (docs/contract.md §12, §14)', () => {
    expect(
      loadConfig({
        TABLE_NAME: 't',
        EXPORT_EXECUTION_TIMEOUT_SECONDS: '30',
        MAX_RERUNS_PER_TASK: '2',
        EXPORT_RETENTION_DAYS: '1',
        EXPORT_BUCKET: 'my-exports',
      }),
    ).toMatchObject({
      exportExecutionTimeoutSeconds: 30,
      maxRerunsPerTask: 2,
      exportRetentionDays: 1,
      exportBucket: 'my-exports',
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
    [{ TABLE_NAME: 't', EXPORT_EXECUTION_TIMEOUT_SECONDS: '0' }, /EXPORT_EXECUTION_TIMEOUT/],
    [{ TABLE_NAME: 't', MAX_RERUNS_PER_TASK: '-1' }, /MAX_RERUNS_PER_TASK/],
    [{ TABLE_NAME: 't', EXPORT_RETENTION_DAYS: '0' }, /EXPORT_RETENTION_DAYS/],
    [{ TABLE_NAME: 't', IDEMPOTENCY_LOCAL_CACHE: 'false' }, /IDEMPOTENCY_LOCAL_CACHE/],
  ])('fails loudly on %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('loadConfig for one function', () => {
  const QUEUE = 'https://sqs.eu-west-1.amazonaws.com/123456789012/q';

  it("adds each function's own variables to the shared ones", () => {
    expect(loadConfig({ TABLE_NAME: 't', DLQ_URL: QUEUE }, 'events')).toMatchObject({
      tableName: 't',
      deadLetterQueueUrl: QUEUE,
    });
    expect(
      loadConfig({ TABLE_NAME: 't', EXPORT_JOBS_QUEUE_URL: QUEUE }, 'dispatcher'),
    ).toMatchObject({ tableName: 't', exportJobsQueueUrl: QUEUE });
    expect(
      loadConfig({ TABLE_NAME: 't', CALLBACK_SECRETS_ARN: 'arn:secret' }, 'http'),
    ).toMatchObject({ callbackSecrets: { secretArn: 'arn:secret' } });
    const secrets = JSON.stringify({ app: ['0123456789abcdef'] });
    expect(loadConfig({ TABLE_NAME: 't', CALLBACK_SECRETS: secrets }, 'http')).toMatchObject({
      callbackSecrets: { document: { app: ['0123456789abcdef'] } },
    });
  });

  it.each([
    ['events', { TABLE_NAME: 't' }, /DLQ_URL/],
    ['events', { TABLE_NAME: 't', DLQ_URL: 'not a url' }, /DLQ_URL/],
    ['dispatcher', { TABLE_NAME: 't' }, /EXPORT_JOBS_QUEUE_URL/],
    ['journalProjector', { TABLE_NAME: 't', STAGE: 'prod' }, /JOURNAL_TOPIC_ARN/],
    [
      'journalProjector',
      { TABLE_NAME: 't', JOURNAL_TOPIC_ARN: 'arn:aws:sns:eu-west-1:1:t', STAGE: 'Prod!' },
      /STAGE/,
    ],
    ['http', { TABLE_NAME: 't' }, /CALLBACK_SECRETS_ARN \(or CALLBACK_SECRETS\)/],
    [
      'http',
      { TABLE_NAME: 't', CALLBACK_SECRETS: '{' },
      /CALLBACK_SECRETS: callback secrets are not JSON/,
    ],
  ] as const)('fails loudly for %s on %j', (fn, env, message) => {
    expect(() => loadConfig(env, fn)).toThrow(message);
  });

  it("reports the shared and the function's problems together", () => {
    expect(() => loadConfig({}, 'events')).toThrow(/TABLE_NAME.*; DLQ_URL/);
  });
});
