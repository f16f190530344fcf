import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CALLBACK_APPLICATION_ID,
  DEFAULT_EXPORT_FEE,
  DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
  DEFAULT_INBOX_RETENTION_SECONDS,
} from '../../../functions/contract/retention';
import {
  DEFAULT_EVENTS_BATCH_SIZE,
  DEFAULT_EVENTS_MAX_CONCURRENCY,
  LEDGER_CONTEXT_KEYS,
  LedgerConfigError,
  type RawLedgerContext,
  resolveLedgerConfig,
} from '../../../lib/config';
import {
  ledgerConfigFromContext,
  parseStageBlocks,
  readLedgerContext,
  STAGES_CONTEXT_KEY,
} from '../../../lib/stage-context';

const ISSUER = 'https://issuer.example.com/';

describe('resolveLedgerConfig: defaults', () => {
  it('uses stage dev, IAM auth, deletion protection and the shared contract defaults', () => {
    expect(resolveLedgerConfig({})).toEqual({
      stage: 'dev',
      auth: { kind: 'iam' },
      deletionProtection: true,
      accountDirectoryIndexes: 3,
      idempotencyRetentionSeconds: DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
      idempotencyHedgedRead: 'adaptive',
      inboxRetentionSeconds: DEFAULT_INBOX_RETENTION_SECONDS,
      exportFee: DEFAULT_EXPORT_FEE,
      exportExecutionTimeoutSeconds: 900,
      maxRerunsPerTask: 20,
      exportRetentionDays: 7,
      eventsBatchSize: 10,
      eventsMaxConcurrency: 5,
      gapRefetchAfterSeconds: 300,
      backdateLimitDays: 90,
      intakeShards: 8,
      intakeStrandedAfterSeconds: 60,
      callbackApplicationId: 'export-worker',
      removalPolicy: 'retain',
      logRetentionDays: 30,
      apiThrottle: { rateLimit: 100, burstLimit: 200 },
      callbackThrottle: { rateLimit: 50, burstLimit: 100 },
      httpReservedConcurrency: undefined,
      dispatcherReservedConcurrency: 2,
      alarmEmail: undefined,
      api5xxThreshold: 5,
      journalReaders: [],
    });
    // The runtime's default (functions/handlers/shared/config.ts) and the infrastructure's are one constant.
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
  it.each([
    ['always', 'always'],
    ['adaptive', 'adaptive'],
    [true, 'adaptive'],
    ['true', 'adaptive'],
    [false, 'off'],
  ])('reads idempotencyHedgedRead %s as %s', (given, mode) => {
    expect(resolveLedgerConfig({ idempotencyHedgedRead: given }).idempotencyHedgedRead).toBe(mode);
  });

  it('parses -c strings (booleans and integers arrive as strings)', () => {
    const config = resolveLedgerConfig({
      stage: 'prod',
      deletionProtection: 'false',
      idempotencyRetentionSeconds: '3600',
      idempotencyHedgedRead: 'false',
      inboxRetentionSeconds: '7200',
      exportFee: '250',
    });
    expect(config).toMatchObject({
      stage: 'prod',
      deletionProtection: false,
      idempotencyRetentionSeconds: 3600,
      idempotencyHedgedRead: 'off',
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
    expect(resolveLedgerConfig({ eventsBatchSize: 100, eventsMaxConcurrency: 1000 })).toMatchObject(
      {
        eventsBatchSize: 100,
        eventsMaxConcurrency: 1000,
      },
    );
    expect(resolveLedgerConfig({ eventsBatchSize: ' 7 ' }).eventsBatchSize).toBe(7);
  });

  it("parses the gap re-fetch delay from the sweeper's minute to a day", () => {
    expect(resolveLedgerConfig({ gapRefetchAfterSeconds: '60' }).gapRefetchAfterSeconds).toBe(60);
    expect(resolveLedgerConfig({ gapRefetchAfterSeconds: 86_400 }).gapRefetchAfterSeconds).toBe(
      86_400,
    );
  });

  it('parses the backdate limit from a day to ten years (docs/contract.md §26)', () => {
    expect(resolveLedgerConfig({ backdateLimitDays: '1' }).backdateLimitDays).toBe(1);
    expect(resolveLedgerConfig({ backdateLimitDays: 3660 }).backdateLimitDays).toBe(3660);
  });

  it('parses intakeShards from 1 to 9, refusing more than a posting can gate (§24)', () => {
    expect(resolveLedgerConfig({ intakeShards: '1' }).intakeShards).toBe(1);
    expect(resolveLedgerConfig({ intakeShards: 9 }).intakeShards).toBe(9);
    expect(() => resolveLedgerConfig({ intakeShards: 10 })).toThrow(/intakeShards/);
    expect(() => resolveLedgerConfig({ intakeShards: 0 })).toThrow(/intakeShards/);
  });

  it('parses intakeStrandedAfterSeconds from a second to a day, refusing others at synth (§36)', () => {
    expect(resolveLedgerConfig({}).intakeStrandedAfterSeconds).toBe(60);
    const parse = (value: unknown) =>
      resolveLedgerConfig({ intakeStrandedAfterSeconds: value }).intakeStrandedAfterSeconds;
    expect(parse('1')).toBe(1);
    expect(parse(86_400)).toBe(86_400);
    for (const refused of [0, 86_401, '1.5', 'soon', -5]) {
      expect(() => parse(refused), String(refused)).toThrow(
        /intakeStrandedAfterSeconds must be an integer from 1 to 86400/,
      );
    }
  });

  it('accepts callback application ids of 1 to 64 letters, digits, dots, underscores, dashes', () => {
    for (const id of ['a', 'Export_Worker-2.prod', 'x'.repeat(64), '0', '...', '-_-']) {
      expect(resolveLedgerConfig({ callbackApplicationId: id }).callbackApplicationId).toBe(id);
    }
  });

  it('derives the removal policy from deletionProtection unless set', () => {
    expect(resolveLedgerConfig({ deletionProtection: 'false' }).removalPolicy).toBe('destroy');
    expect(resolveLedgerConfig({ deletionProtection: true }).removalPolicy).toBe('retain');
    expect(
      resolveLedgerConfig({ deletionProtection: 'false', removalPolicy: 'retain' }).removalPolicy,
    ).toBe('retain');
    expect(resolveLedgerConfig({ removalPolicy: 'destroy' })).toMatchObject({
      deletionProtection: true,
      removalPolicy: 'destroy',
    });
  });

  it('accepts every CloudWatch Logs retention period', () => {
    for (const days of [1, 7, 30, 365, 3653]) {
      expect(resolveLedgerConfig({ logRetentionDays: String(days) }).logRetentionDays).toBe(days);
    }
  });

  it('parses API throttling; the callbacks route defaults to half the stage limits', () => {
    expect(resolveLedgerConfig({ apiRateLimit: '500', apiBurstLimit: 1000 })).toMatchObject({
      apiThrottle: { rateLimit: 500, burstLimit: 1000 },
      callbackThrottle: { rateLimit: 250, burstLimit: 500 },
    });
    expect(
      resolveLedgerConfig({
        apiRateLimit: 1,
        apiBurstLimit: 1,
        callbackRateLimit: '1',
        callbackBurstLimit: '1',
      }),
    ).toMatchObject({
      apiThrottle: { rateLimit: 1, burstLimit: 1 },
      callbackThrottle: { rateLimit: 1, burstLimit: 1 },
    });
    // A burst below the rate is what AWS's own regional defaults look like (10,000 / 5,000).
    expect(resolveLedgerConfig({ apiRateLimit: 300, apiBurstLimit: 200 }).apiThrottle).toEqual({
      rateLimit: 300,
      burstLimit: 200,
    });
    // Half of 1 would be 0: the derived route limit never drops below 1.
    expect(resolveLedgerConfig({ apiRateLimit: 1, apiBurstLimit: 1 }).callbackThrottle).toEqual({
      rateLimit: 1,
      burstLimit: 1,
    });
    expect(
      resolveLedgerConfig({ apiRateLimit: 10_000, apiBurstLimit: 5_000, callbackRateLimit: 20 })
        .callbackThrottle,
    ).toEqual({ rateLimit: 20, burstLimit: 2_500 });
  });

  it('parses reserved concurrency: HTTP none by default, dispatcher 2, "none" reserves nothing', () => {
    expect(resolveLedgerConfig({ httpReservedConcurrency: '50' }).httpReservedConcurrency).toBe(50);
    expect(
      resolveLedgerConfig({ httpReservedConcurrency: 'none' }).httpReservedConcurrency,
    ).toBeUndefined();
    expect(
      resolveLedgerConfig({ dispatcherReservedConcurrency: 5 }).dispatcherReservedConcurrency,
    ).toBe(5);
    expect(
      resolveLedgerConfig({ dispatcherReservedConcurrency: 'none' }).dispatcherReservedConcurrency,
    ).toBeUndefined();
  });

  it('parses the alarm e-mail and the API 5xx threshold', () => {
    expect(
      resolveLedgerConfig({
        alarmEmail: 'ops+ledger@payments.example.co.uk',
        api5xxThreshold: '1',
      }),
    ).toMatchObject({ alarmEmail: 'ops+ledger@payments.example.co.uk', api5xxThreshold: 1 });
  });

  it('selects JWT auth with a comma separated audience (trimmed, de-duplicated)', () => {
    expect(resolveLedgerConfig({ jwtIssuer: ISSUER, jwtAudience: ' web, cli ,web,' }).auth).toEqual(
      { kind: 'jwt', issuer: ISSUER, audience: ['web', 'cli'] },
    );
  });

  it('reads journalReaders as a comma separated list or an array (trimmed, de-duplicated)', () => {
    const role = 'arn:aws:sts::123456789012:assumed-role/reconciler';
    expect(
      resolveLedgerConfig({ journalReaders: ` ${role}, sub-1 ,${role},` }).journalReaders,
    ).toEqual([role, 'sub-1']);
    expect(resolveLedgerConfig({ journalReaders: ['sub-1'] }).journalReaders).toEqual(['sub-1']);
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
    [
      'a deadline the export retries do not fit in (5 receives × 150 s + 60 s = 810 s)',
      { exportExecutionTimeoutSeconds: '810' },
      /exportExecutionTimeoutSeconds must be an integer from 811 to 86400 \(more than 5 receives × the export-jobs visibility timeout of 150 s \+ a 60 s margin = 810 s/,
    ],
    ['negative reruns', { maxRerunsPerTask: '-1' }, /maxRerunsPerTask must be an integer/],
    ['zero retention days', { exportRetentionDays: '0' }, /exportRetentionDays must be an integer/],
    ['exportFee wrong type', { exportFee: true }, /exportFee must be a positive integer/],
    [
      'eventsBatchSize zero',
      { eventsBatchSize: 0 },
      /eventsBatchSize must be an integer from 1 to 100/,
    ],
    [
      'eventsBatchSize over 100 (more than batched transactions take in time)',
      { eventsBatchSize: '101' },
      /from 1 to 100;/,
    ],
    ['eventsBatchSize fractional', { eventsBatchSize: 2.5 }, /eventsBatchSize must be an integer/],
    [
      'backdateLimitDays of 0',
      { backdateLimitDays: '0' },
      /backdateLimitDays must be an integer from 1 to 3660; got "0"/,
    ],
    [
      'backdateLimitDays past ten years',
      { backdateLimitDays: 3661 },
      /backdateLimitDays must be an integer from 1 to 3660/,
    ],
    [
      "gapRefetchAfterSeconds under the sweeper's minute",
      { gapRefetchAfterSeconds: '59' },
      /gapRefetchAfterSeconds must be an integer from 60 to 86400; got "59"/,
    ],
    [
      'gapRefetchAfterSeconds over a day',
      { gapRefetchAfterSeconds: 86_401 },
      /gapRefetchAfterSeconds must be an integer from 60 to 86400/,
    ],
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
    [
      'removalPolicy unknown',
      { removalPolicy: 'snapshot' },
      /removalPolicy must be "retain" or "destroy"/,
    ],
    ['removalPolicy wrong case', { removalPolicy: 'RETAIN' }, /removalPolicy must be/],
    ['removalPolicy wrong type', { removalPolicy: true }, /removalPolicy must be/],
    [
      'logRetentionDays not a CloudWatch period',
      { logRetentionDays: 31 },
      /logRetentionDays must be one of/,
    ],
    ['logRetentionDays zero', { logRetentionDays: '0' }, /logRetentionDays must be one of/],
    [
      'logRetentionDays not numeric',
      { logRetentionDays: '30d' },
      /logRetentionDays must be one of/,
    ],
    ['apiRateLimit zero', { apiRateLimit: 0 }, /apiRateLimit must be an integer from 1 to 10000/],
    ['apiRateLimit over the regional quota', { apiRateLimit: '10001' }, /apiRateLimit must be/],
    ['apiRateLimit fractional', { apiRateLimit: 1.5 }, /apiRateLimit must be/],
    [
      'apiBurstLimit over the regional quota',
      { apiBurstLimit: 5001 },
      /apiBurstLimit must be an integer from 1 to 5000/,
    ],
    ['apiBurstLimit not numeric', { apiBurstLimit: 'lots' }, /apiBurstLimit must be/],
    [
      'callbackRateLimit above the stage rate',
      { callbackRateLimit: 101 },
      /callbackRateLimit must be an integer from 1 to 100;/,
    ],
    [
      'callbackBurstLimit above the stage burst',
      { callbackBurstLimit: '201' },
      /callbackBurstLimit must be an integer from 1 to 200;/,
    ],
    ['callbackRateLimit zero', { callbackRateLimit: 0 }, /callbackRateLimit must be/],
    [
      'callbackRateLimit above a lowered stage rate',
      { apiRateLimit: 20, callbackRateLimit: 50 },
      /callbackRateLimit must be an integer from 1 to 20;/,
    ],
    [
      'httpReservedConcurrency zero (would stop the function)',
      { httpReservedConcurrency: 0 },
      /httpReservedConcurrency must be an integer from 1 to 10000, or "none"/,
    ],
    [
      'httpReservedConcurrency over the cap',
      { httpReservedConcurrency: '10001' },
      /httpReservedConcurrency must be/,
    ],
    [
      'httpReservedConcurrency not numeric',
      { httpReservedConcurrency: 'auto' },
      /httpReservedConcurrency must be/,
    ],
    [
      'dispatcherReservedConcurrency zero',
      { dispatcherReservedConcurrency: '0' },
      /dispatcherReservedConcurrency must be/,
    ],
    [
      'dispatcherReservedConcurrency negative',
      { dispatcherReservedConcurrency: -2 },
      /dispatcherReservedConcurrency must be/,
    ],
    [
      'alarmEmail without @',
      { alarmEmail: 'ops.example.com' },
      /alarmEmail must be one e-mail address/,
    ],
    ['alarmEmail without a dotted domain', { alarmEmail: 'ops@localhost' }, /alarmEmail must be/],
    [
      'alarmEmail with two addresses',
      { alarmEmail: 'a@example.com,b@example.com' },
      /alarmEmail must be/,
    ],
    ['alarmEmail with a space', { alarmEmail: 'ops team@example.com' }, /alarmEmail must be/],
    ['alarmEmail wrong type', { alarmEmail: ['ops@example.com'] }, /alarmEmail must be/],
    ['api5xxThreshold zero', { api5xxThreshold: 0 }, /api5xxThreshold must be an integer from 1/],
    ['api5xxThreshold not numeric', { api5xxThreshold: 'five' }, /api5xxThreshold must be/],
    ['journalReaders wrong type', { journalReaders: 5 }, /journalReaders must be a comma/],
    [
      'idempotencyHedgedRead not a mode',
      { idempotencyHedgedRead: 'on' },
      /idempotencyHedgedRead must be "adaptive", "always", "off", true or false/,
    ],
    [
      'journalReaders entry not a string',
      { journalReaders: ['ok', 7] },
      /journalReaders entries must be principals/,
    ],
    ['journalReaders entry with a space', { journalReaders: ['two words'] }, /must be principals/],
    [
      'journalReaders naming a role by its IAM ARN',
      { journalReaders: 'arn:aws:iam::123456789012:role/ops/reconciler' },
      /a role calls as arn:aws:sts::123456789012:assumed-role\/reconciler/,
    ],
    [
      'journalReaders naming an assumed-role session',
      { journalReaders: ['arn:aws:sts::123456789012:assumed-role/reconciler/session-1'] },
      /a role calls as arn:aws:sts::123456789012:assumed-role\/reconciler \(docs/,
    ],
  ])('%s', (_name, raw, message) => {
    expect(() => resolveLedgerConfig(raw)).toThrow(LedgerConfigError);
    expect(() => resolveLedgerConfig(raw)).toThrow(message);
  });
});

/** A CDK context lookup over a plain object, as `app.node.tryGetContext` would answer. */
const contextOf =
  (context: Record<string, unknown>) =>
  (key: string): unknown =>
    context[key];

describe('ledgerConfigFromContext: per-stage blocks', () => {
  const stages = {
    prod: {
      jwtIssuer: ISSUER,
      jwtAudience: ['ledger-api'],
      apiRateLimit: 500,
      apiBurstLimit: 1000,
      alarmEmail: 'oncall@example.com',
      logRetentionDays: 365,
      idempotencyRetentionSeconds: 172_800,
    },
    qa: { deletionProtection: false, apiRateLimit: 20, apiBurstLimit: 40 },
  };

  it('uses the block of the selected stage', () => {
    const config = ledgerConfigFromContext(contextOf({ stage: 'prod', stages }));
    expect(config).toMatchObject({
      stage: 'prod',
      auth: { kind: 'jwt', issuer: ISSUER, audience: ['ledger-api'] },
      apiThrottle: { rateLimit: 500, burstLimit: 1000 },
      callbackThrottle: { rateLimit: 250, burstLimit: 500 },
      alarmEmail: 'oncall@example.com',
      logRetentionDays: 365,
      idempotencyRetentionSeconds: 172_800,
      removalPolicy: 'retain',
    });
    expect(ledgerConfigFromContext(contextOf({ stage: 'qa', stages }))).toMatchObject({
      deletionProtection: false,
      removalPolicy: 'destroy',
      apiThrottle: { rateLimit: 20, burstLimit: 40 },
    });
  });

  it('lets a top-level value (-c key=value) override the block', () => {
    const config = ledgerConfigFromContext(
      contextOf({ stage: 'prod', stages, apiRateLimit: '800', logRetentionDays: '90' }),
    );
    expect(config.apiThrottle).toEqual({ rateLimit: 800, burstLimit: 1000 });
    expect(config.logRetentionDays).toBe(90);
    expect(config.alarmEmail).toBe('oncall@example.com');
  });

  it('treats an empty top-level value as unset (the block value stays)', () => {
    expect(
      ledgerConfigFromContext(contextOf({ stage: 'prod', stages, apiRateLimit: '' })).apiThrottle,
    ).toEqual({ rateLimit: 500, burstLimit: 1000 });
  });

  it('falls back to the defaults for a stage without a block, and to dev without a stage', () => {
    expect(ledgerConfigFromContext(contextOf({ stage: 'sandbox', stages }))).toEqual(
      resolveLedgerConfig({ stage: 'sandbox' }),
    );
    expect(ledgerConfigFromContext(contextOf({ stages }))).toEqual(resolveLedgerConfig({}));
    expect(ledgerConfigFromContext(contextOf({}))).toEqual(resolveLedgerConfig({}));
  });

  it('names the block when a value from it is invalid', () => {
    const bad = { prod: { ...stages.prod, apiRateLimit: 0 } };
    expect(() => ledgerConfigFromContext(contextOf({ stage: 'prod', stages: bad }))).toThrow(
      /apiRateLimit must be an integer from 1 to 10000; got 0 \(from stages\.prod\)/,
    );
    // Overridden at the top level: the block value no longer matters.
    expect(
      ledgerConfigFromContext(contextOf({ stage: 'prod', stages: bad, apiRateLimit: 400 }))
        .apiThrottle,
    ).toEqual({ rateLimit: 400, burstLimit: 1000 });
    // A top-level value is reported without the block.
    expect(() =>
      ledgerConfigFromContext(contextOf({ stage: 'prod', stages, exportFee: '-1' })),
    ).toThrow(/exportFee must be a positive integer; got "-1"$/);
  });

  it('validates every other block too, so a bad prod block fails a dev synth', () => {
    const bad = { ...stages, prod: { ...stages.prod, alarmEmail: 'oncall' } };
    expect(() => ledgerConfigFromContext(contextOf({ stage: 'dev', stages: bad }))).toThrow(
      /Invalid CDK context: stages\.prod: alarmEmail must be one e-mail address/,
    );
    expect(() => ledgerConfigFromContext(contextOf({ stages: bad }))).toThrow(LedgerConfigError);
  });

  it.each([
    ['not an object (a -c string)', '{"prod":{}}', /stages must be an object of stage name/],
    ['an array', [{ prod: {} }], /stages must be an object/],
    ['an invalid stage name', { Prod: {} }, /stages: "Prod" is not a valid stage name/],
    [
      'a block that is not an object',
      { prod: 'strict' },
      /stages\.prod must be an object of context keys/,
    ],
    ['a block that is an array', { prod: [] }, /stages\.prod must be an object/],
    ['a block that sets stage', { prod: { stage: 'qa' } }, /stages\.prod must not set stage/],
    [
      'a misspelt key',
      { prod: { apiRatelimit: 5 } },
      /stages\.prod\.apiRatelimit is not a context key of this app; known keys: jwtIssuer/,
    ],
  ])('refuses a stages value that is %s', (_name, value, message) => {
    expect(() => parseStageBlocks(value)).toThrow(LedgerConfigError);
    expect(() => ledgerConfigFromContext(contextOf({ [STAGES_CONTEXT_KEY]: value }))).toThrow(
      message,
    );
  });

  it('accepts an unset or empty stages value', () => {
    for (const value of [undefined, null, '', {}]) expect(parseStageBlocks(value).size).toBe(0);
    expect(parseStageBlocks({ prod: {} }).get('prod')).toEqual({});
  });

  it('accepts every ledger key except stage in a block', () => {
    const block: RawLedgerContext = Object.fromEntries(
      LEDGER_CONTEXT_KEYS.filter((key) => key !== 'stage').map((key) => [key, undefined]),
    );
    expect(parseStageBlocks({ prod: block }).get('prod')).toEqual(block);
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
