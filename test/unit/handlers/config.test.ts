import { describe, expect, it } from 'vitest';
import { loadFunctionConfig } from '../../../functions/handlers/function-envs';
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
      idempotencyHedgedRead: 'adaptive',
      exportExecutionTimeoutSeconds: 900,
      maxRerunsPerTask: 20,
      exportRetentionDays: 7,
      exportBucket: 'ledger-exports',
      journalReaders: [],
      backdateLimitDays: 90,
      daySumsSettleSeconds: 300,
      intakeShards: 8,
      intakeStrandedAfterSeconds: 60,
    });
  });

  it('reads INTAKE_STRANDED_AFTER_SECONDS and refuses one outside 1 … 86400 (§36)', () => {
    const config = loadConfig({ TABLE_NAME: 't', INTAKE_STRANDED_AFTER_SECONDS: '5' });
    expect(config.intakeStrandedAfterSeconds).toBe(5);
    expect(() => loadConfig({ TABLE_NAME: 't', INTAKE_STRANDED_AFTER_SECONDS: '0' })).toThrow(
      /INTAKE_STRANDED_AFTER_SECONDS/,
    );
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
    for (const value of ['[oops', '[1]', '["a", null]']) {
      expect(() => loadConfig({ TABLE_NAME: 't', JOURNAL_READERS: value }), value).toThrow(
        `JOURNAL_READERS must be a JSON array of principals (strings) or a comma separated list (got ${JSON.stringify(value)})`,
      );
    }
  });

  it('reads the journal projector topic and stage', () => {
    const topic = 'arn:aws:sns:eu-west-1:123456789012:ledger-journal';
    expect(
      loadFunctionConfig(
        { TABLE_NAME: 't', JOURNAL_TOPIC_ARN: topic, STAGE: 'prod' },
        'journalProjector',
      ),
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

  it.each(['adaptive', 'always', 'off'])('reads IDEMPOTENCY_HEDGED_READ=%s (§36)', (value) => {
    expect(loadConfig({ TABLE_NAME: 't', IDEMPOTENCY_HEDGED_READ: value })).toMatchObject({
      idempotencyHedgedRead: value,
    });
    expect(() => loadConfig({ TABLE_NAME: 't', IDEMPOTENCY_HEDGED_READ: 'on' })).toThrow(
      'IDEMPOTENCY_HEDGED_READ must be adaptive, always or off (got "on")',
    );
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

// Every refusal reads as a sentence naming the variable, what it must be and what it got, as
// npm start's own settings do; never zod's raw text ("Invalid input: expected int, ...").
describe('loadConfig explains a refused value in a sentence', () => {
  const MAX = Number.MAX_SAFE_INTEGER;
  it.each([
    [
      { TABLE_NAME: 't', EXPORT_FEE: '1.5' },
      `EXPORT_FEE must be a whole number from 1 to ${MAX} (got "1.5")`,
    ],
    [
      { TABLE_NAME: 't', EXPORT_FEE: 'ten' },
      `EXPORT_FEE must be a whole number from 1 to ${MAX} (got "ten")`,
    ],
    [
      { TABLE_NAME: 't', EXPORT_FEE: '' },
      `EXPORT_FEE must be a whole number from 1 to ${MAX} (got "")`,
    ],
    [
      { TABLE_NAME: 't', IDEMPOTENCY_RETENTION_SECONDS: '0' },
      `IDEMPOTENCY_RETENTION_SECONDS must be a whole number from 1 to ${MAX} (got "0")`,
    ],
    [
      { TABLE_NAME: 't', MAX_RERUNS_PER_TASK: '-1' },
      'MAX_RERUNS_PER_TASK must be a whole number from 0 to 1000 (got "-1")',
    ],
    [
      { TABLE_NAME: 't', EXPORT_RETENTION_DAYS: '4000' },
      'EXPORT_RETENTION_DAYS must be a whole number from 1 to 3650 (got "4000")',
    ],
    [
      { TABLE_NAME: 't', IDEMPOTENCY_LOCAL_CACHE: 'false' },
      'IDEMPOTENCY_LOCAL_CACHE must be on or off (got "false")',
    ],
    [
      { TABLE_NAME: 't', EXPORT_BUCKET: 'ab' },
      'EXPORT_BUCKET must be a bucket name of 3 to 63 characters (got "ab")',
    ],
    [
      { TABLE_NAME: 't', CALLBACK_APPLICATION_ID: 'has space' },
      'CALLBACK_APPLICATION_ID must be 1–64 characters of A-Z a-z 0-9 . _ - (got "has space")',
    ],
    [{}, 'TABLE_NAME must name the ledger table'],
  ])('%j', (env, sentence) => {
    let message = '';
    try {
      loadConfig(env);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(`Invalid configuration: ${sentence}.`);
  });

  it('joins several problems as sentences, with no zod wording', () => {
    expect(() => loadFunctionConfig({ EXPORT_FEE: '1.5', DLQ_URL: 'not a url' }, 'events')).toThrow(
      /^Invalid configuration: TABLE_NAME must name the ledger table\. EXPORT_FEE must be a whole number .*\. DLQ_URL must be the queue URL \(got "not a url"\)\.$/,
    );
    expect(() => loadConfig({ EXPORT_FEE: '1.5' })).not.toThrow(/Invalid input|expected|received/);
    expect(() => loadFunctionConfig({ TABLE_NAME: 't' }, 'events')).toThrow(
      'Invalid configuration: DLQ_URL must be the queue URL (it is not set).',
    );
  });
});

describe('loadConfig for one function', () => {
  const QUEUE = 'https://sqs.eu-west-1.amazonaws.com/123456789012/q';

  it("adds each function's own variables to the shared ones", () => {
    expect(loadFunctionConfig({ TABLE_NAME: 't', DLQ_URL: QUEUE }, 'events')).toMatchObject({
      tableName: 't',
      deadLetterQueueUrl: QUEUE,
    });
    expect(
      loadFunctionConfig(
        { TABLE_NAME: 't', EXPORT_JOBS_QUEUE_URL: QUEUE, CREDIT_INTAKE_QUEUE_URL: `${QUEUE}2` },
        'dispatcher',
      ),
    ).toMatchObject({
      tableName: 't',
      exportJobsQueueUrl: QUEUE,
      creditIntakeQueueUrl: `${QUEUE}2`,
    });
    expect(
      loadFunctionConfig({ TABLE_NAME: 't', CREDIT_INTAKE_QUEUE_URL: QUEUE }, 'creditIntake'),
    ).toMatchObject({ tableName: 't', creditIntakeQueueUrl: QUEUE });
    expect(
      loadFunctionConfig({ TABLE_NAME: 't', CALLBACK_SECRETS_ARN: 'arn:secret' }, 'http'),
    ).toMatchObject({ callbackSecrets: { secretArn: 'arn:secret' } });
    const secrets = JSON.stringify({ app: ['0123456789abcdef'] });
    expect(
      loadFunctionConfig({ TABLE_NAME: 't', CALLBACK_SECRETS: secrets }, 'http'),
    ).toMatchObject({
      callbackSecrets: { document: { app: ['0123456789abcdef'] } },
    });
  });

  it.each([
    ['events', { TABLE_NAME: 't' }, /DLQ_URL/],
    ['events', { TABLE_NAME: 't', DLQ_URL: 'not a url' }, /DLQ_URL/],
    ['dispatcher', { TABLE_NAME: 't' }, /EXPORT_JOBS_QUEUE_URL/],
    ['dispatcher', { TABLE_NAME: 't', EXPORT_JOBS_QUEUE_URL: QUEUE }, /CREDIT_INTAKE_QUEUE_URL/],
    ['creditIntake', { TABLE_NAME: 't' }, /CREDIT_INTAKE_QUEUE_URL/],
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
    expect(() => loadFunctionConfig(env, fn)).toThrow(message);
  });

  it('reports both halves of a joined schema, and a blank secret', () => {
    expect(() => loadFunctionConfig({ TABLE_NAME: 't' }, 'exportWorker')).toThrow(
      'Invalid configuration: API_URL must be the HTTP API base URL (it is not set). CALLBACK_SECRETS_ARN (or CALLBACK_SECRETS) must be set.',
    );
    expect(() => loadFunctionConfig({ TABLE_NAME: 't', CALLBACK_SECRETS: '  ' }, 'http')).toThrow(
      'Invalid configuration: CALLBACK_SECRETS must not be blank (got "  ").',
    );
    expect(
      loadFunctionConfig(
        { TABLE_NAME: 't', API_URL: 'https://api.example.com//', CALLBACK_SECRETS_ARN: 'arn:s' },
        'exportWorker',
      ),
    ).toMatchObject({ apiUrl: 'https://api.example.com', callbackSecrets: { secretArn: 'arn:s' } });
  });

  it("reports the shared and the function's problems together", () => {
    expect(() => loadFunctionConfig({}, 'events')).toThrow(/TABLE_NAME.*\. DLQ_URL/);
  });
});
