import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CALLBACK_APPLICATION_ID,
  DEFAULT_EXPORT_FEE,
  DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
  DEFAULT_INBOX_RETENTION_SECONDS,
} from '../../functions/contract/retention';
import {
  DEFAULT_EVENTS_BATCH_SIZE,
  DEFAULT_EVENTS_MAX_CONCURRENCY,
  LEDGER_CONTEXT_KEYS,
  LedgerConfigError,
  readLedgerContext,
  resolveLedgerConfig,
} from '../../lib/config';

const ISSUER = 'https://issuer.example.com/';

describe('resolveLedgerConfig: defaults', () => {
  it('uses stage dev, IAM auth, deletion protection and the shared contract defaults', () => {
    expect(resolveLedgerConfig({})).toEqual({
      stage: 'dev',
      auth: { kind: 'iam' },
      deletionProtection: true,
      idempotencyRetentionSeconds: DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
      inboxRetentionSeconds: DEFAULT_INBOX_RETENTION_SECONDS,
      exportFee: DEFAULT_EXPORT_FEE,
      eventsBatchSize: 10,
      eventsMaxConcurrency: 5,
      callbackApplicationId: 'export-worker',
    });
    // The runtime's default (functions/config.ts) and the infrastructure's are one constant.
    expect(DEFAULT_CALLBACK_APPLICATION_ID).toBe('export-worker');
    expect(DEFAULT_EVENTS_BATCH_SIZE).toBe(10);
    expect(DEFAULT_EVENTS_MAX_CONCURRENCY).toBe(5);
  });

  it('treats empty strings and null like unset values', () => {
    expect(
      resolveLedgerConfig({
        stage: '',
        jwtIssuer: '',
        jwtAudience: null,
        exportFee: '',
        callbackApplicationId: '',
      }),
    ).toEqual(resolveLedgerConfig({}));
  });
});

describe('resolveLedgerConfig: accepted values', () => {
  it('parses -c strings (booleans and integers arrive as strings)', () => {
    const config = resolveLedgerConfig({
      stage: 'prod',
      deletionProtection: 'false',
      idempotencyRetentionSeconds: '3600',
      inboxRetentionSeconds: '7200',
      exportFee: '250',
    });
    expect(config).toMatchObject({
      stage: 'prod',
      deletionProtection: false,
      idempotencyRetentionSeconds: 3600,
      inboxRetentionSeconds: 7200,
      exportFee: 250,
    });
  });

  it('accepts typed cdk.json values', () => {
    expect(
      resolveLedgerConfig({ deletionProtection: true, idempotencyRetentionSeconds: 60 }),
    ).toMatchObject({ deletionProtection: true, idempotencyRetentionSeconds: 60 });
  });

  it('parses events batch size and maximum concurrency, bounds included', () => {
    expect(resolveLedgerConfig({ eventsBatchSize: '1', eventsMaxConcurrency: '2' })).toMatchObject({
      eventsBatchSize: 1,
      eventsMaxConcurrency: 2,
    });
    expect(resolveLedgerConfig({ eventsBatchSize: 10, eventsMaxConcurrency: 1000 })).toMatchObject({
      eventsBatchSize: 10,
      eventsMaxConcurrency: 1000,
    });
    expect(resolveLedgerConfig({ eventsBatchSize: ' 7 ' }).eventsBatchSize).toBe(7);
  });

  it('accepts callback application ids of 1 to 64 letters, digits, dots, underscores, dashes', () => {
    for (const id of ['a', 'Export_Worker-2.prod', 'x'.repeat(64), '0', '...', '-_-']) {
      expect(resolveLedgerConfig({ callbackApplicationId: id }).callbackApplicationId).toBe(id);
    }
  });

  it('selects JWT auth with a comma separated audience (trimmed, de-duplicated)', () => {
    expect(resolveLedgerConfig({ jwtIssuer: ISSUER, jwtAudience: ' web, cli ,web,' }).auth).toEqual(
      { kind: 'jwt', issuer: ISSUER, audience: ['web', 'cli'] },
    );
  });

  it('selects JWT auth with an array audience', () => {
    expect(resolveLedgerConfig({ jwtIssuer: ISSUER, jwtAudience: ['api'] }).auth).toEqual({
      kind: 'jwt',
      issuer: ISSUER,
      audience: ['api'],
    });
  });
});

describe('resolveLedgerConfig: every validation branch throws', () => {
  it.each([
    ['stage not a string', { stage: 42 }, /stage must match/],
    ['stage with uppercase/underscore', { stage: 'Prod_1' }, /stage must match/],
    ['stage too long', { stage: 'a'.repeat(21) }, /stage must match/],
    ['jwtIssuer without jwtAudience', { jwtIssuer: ISSUER }, /jwtAudience is missing/],
    ['jwtAudience without jwtIssuer', { jwtAudience: 'api' }, /jwtIssuer is missing/],
    ['jwtIssuer not a string', { jwtIssuer: 7, jwtAudience: 'api' }, /jwtIssuer must be a string/],
    ['jwtIssuer not a URL', { jwtIssuer: 'issuer', jwtAudience: 'api' }, /https URL/],
    [
      'jwtIssuer over http',
      { jwtIssuer: 'http://issuer.example.com', jwtAudience: 'api' },
      /https URL/,
    ],
    ['jwtAudience wrong type', { jwtIssuer: ISSUER, jwtAudience: 5 }, /comma separated/],
    [
      'jwtAudience array with a non-string',
      { jwtIssuer: ISSUER, jwtAudience: ['api', 1] },
      /entries must be strings/,
    ],
    ['jwtAudience only commas', { jwtIssuer: ISSUER, jwtAudience: ' , ,' }, /at least one/],
    ['jwtAudience empty array', { jwtIssuer: ISSUER, jwtAudience: [] }, /at least one/],
    ['deletionProtection not boolean', { deletionProtection: 'yes' }, /deletionProtection/],
    ['retention zero', { idempotencyRetentionSeconds: 0 }, /idempotencyRetentionSeconds must/],
    ['retention negative', { inboxRetentionSeconds: '-5' }, /inboxRetentionSeconds must/],
    ['retention fractional', { idempotencyRetentionSeconds: 1.5 }, /positive integer/],
    ['retention not numeric', { inboxRetentionSeconds: '1d' }, /positive integer/],
    ['retention unsafe integer', { inboxRetentionSeconds: 2 ** 60 }, /positive integer/],
    ['exportFee zero', { exportFee: '0' }, /exportFee must be a positive integer/],
    ['exportFee wrong type', { exportFee: true }, /exportFee must be a positive integer/],
    [
      'eventsBatchSize zero',
      { eventsBatchSize: 0 },
      /eventsBatchSize must be an integer from 1 to 10/,
    ],
    ['eventsBatchSize over 10 (no batching window)', { eventsBatchSize: '11' }, /from 1 to 10;/],
    ['eventsBatchSize fractional', { eventsBatchSize: 2.5 }, /eventsBatchSize must be an integer/],
    [
      'eventsBatchSize not numeric',
      { eventsBatchSize: 'ten' },
      /eventsBatchSize must be an integer/,
    ],
    ['eventsBatchSize negative', { eventsBatchSize: '-1' }, /eventsBatchSize must be an integer/],
    [
      'eventsBatchSize wrong type',
      { eventsBatchSize: false },
      /eventsBatchSize must be an integer/,
    ],
    [
      'eventsMaxConcurrency below 2',
      { eventsMaxConcurrency: '1' },
      /eventsMaxConcurrency must be an integer from 2 to 1000/,
    ],
    ['eventsMaxConcurrency over 1000', { eventsMaxConcurrency: 1001 }, /from 2 to 1000;/],
    [
      'eventsMaxConcurrency fractional',
      { eventsMaxConcurrency: '5.5' },
      /eventsMaxConcurrency must/,
    ],
    ['eventsMaxConcurrency wrong type', { eventsMaxConcurrency: [5] }, /eventsMaxConcurrency must/],
    [
      'callbackApplicationId too long',
      { callbackApplicationId: 'x'.repeat(65) },
      /callbackApplicationId must match/,
    ],
    [
      'callbackApplicationId with a slash (would change the callback path)',
      { callbackApplicationId: 'export/worker' },
      /callbackApplicationId must match/,
    ],
    [
      'callbackApplicationId with a space',
      { callbackApplicationId: 'export worker' },
      /callbackApplicationId must match/,
    ],
    [
      'callbackApplicationId with a quote (would break the secret JSON)',
      { callbackApplicationId: 'export"worker' },
      /callbackApplicationId must match/,
    ],
    [
      'callbackApplicationId not ASCII',
      { callbackApplicationId: 'exportwörker' },
      /callbackApplicationId must match/,
    ],
    [
      'callbackApplicationId with a trailing newline',
      { callbackApplicationId: 'export-worker\n' },
      /callbackApplicationId must match/,
    ],
    [
      'callbackApplicationId wrong type',
      { callbackApplicationId: 42 },
      /callbackApplicationId must match/,
    ],
  ])('%s', (_name, raw, message) => {
    expect(() => resolveLedgerConfig(raw)).toThrow(LedgerConfigError);
    expect(() => resolveLedgerConfig(raw)).toThrow(message);
  });
});

describe('readLedgerContext', () => {
  it('looks up exactly the documented keys', () => {
    const asked: string[] = [];
    const raw = readLedgerContext((key) => {
      asked.push(key);
      return key === 'stage' ? 'qa' : undefined;
    });
    expect(asked).toEqual([...LEDGER_CONTEXT_KEYS]);
    expect(resolveLedgerConfig(raw).stage).toBe('qa');
  });
});
