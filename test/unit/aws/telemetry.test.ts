import { randomUUID } from 'node:crypto';
import {
  DynamoDBClient,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../../functions/api/app';
import { noWebhookQueue } from '../../../functions/aws/no-webhook-queue';
import { lambdaTelemetry } from '../../../functions/aws/telemetry';
import { localWebhookSecurity } from '../../../functions/aws/webhook-security';
import type { CallbackWriteResult } from '../../../functions/domain/callbacks/port';
import { EventService } from '../../../functions/domain/events/service';
import type { ExecutionRecord, TaskRecord } from '../../../functions/domain/exports/model';
import { requestFingerprint } from '../../../functions/domain/idempotency/fingerprint';
import { OPERATION_IDS } from '../../../functions/domain/idempotency/operations';
import { METRICS } from '../../../functions/domain/shared/metrics';
import { createEventsConsumer } from '../../../functions/handlers/events/consumer';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { httpEvent } from '../../../kit/http-event';
import { ledgerEvent, sqsEvent, sqsRecord } from '../../../kit/ledger-events';
import { APP, callbackBody, SECRET, signedCallback } from '../../support/callbacks';
import { testConfig } from '../../support/config';
import { fakeCallbackPort } from '../../support/fakes/callbacks';
import { fakeDeadLetters, fakeEventLedgerPort } from '../../support/fakes/events';
import { fakeResultObjects, fakeTaskPort } from '../../support/fakes/exports';
import { fakeHealthPort } from '../../support/fakes/health';
import { fakeJournalReadPort } from '../../support/fakes/journal';
import { fakeLedgerPort } from '../../support/fakes/ledger/accounts';
import { fakeBatchPort } from '../../support/fakes/ledger/batches';
import { fakeHoldPort } from '../../support/fakes/ledger/holds';
import { fakeLedgerTransactionPort } from '../../support/fakes/ledger/ledger-transactions';
import { fakeMovementPort } from '../../support/fakes/ledger/movements';
import { fakeReversalPort } from '../../support/fakes/ledger/reversals';
import { fakeEntryReadPort, fakeSettingsPort } from '../../support/fakes/ledger/settings';
import { fakeStatementPort } from '../../support/fakes/ledger/statements';
import { fakeTransferPort } from '../../support/fakes/ledger/transfers';
import { recordingLog } from '../../support/fakes/log';
import { recordingMetrics } from '../../support/fakes/metrics';
import { fakeMonitorPort } from '../../support/fakes/monitors';
import { fakeSearchReadPort } from '../../support/fakes/search';
import { fakeWebhookEndpointPort } from '../../support/fakes/webhooks';
import { quietRuntime } from '../../support/runtime';

/** The ports an HTTP test of callbacks never reaches. */
const otherPorts = () => ({
  ledger: fakeLedgerPort(),
  settings: fakeSettingsPort(),
  entryReads: fakeEntryReadPort(),
  movements: fakeMovementPort(),
  tasks: fakeTaskPort(),
  results: fakeResultObjects(),
  transfers: fakeTransferPort(),
  holds: fakeHoldPort(),
  ledgerTransactions: fakeLedgerTransactionPort(),
  reversals: fakeReversalPort(),
  batches: fakeBatchPort(),
  journal: fakeJournalReadPort(),
  monitors: fakeMonitorPort(),
  statements: fakeStatementPort(),
  health: fakeHealthPort(),
  search: fakeSearchReadPort(),
  webhookEndpoints: fakeWebhookEndpointPort(),
  webhookSecurity: localWebhookSecurity(),
  webhookDeliveries: {
    getDelivery: async () => undefined,
    listDeliveries: async () => ({ items: [], nextCursor: null }),
    cursorsOf: async () => [],
  },
  webhookQueue: noWebhookQueue,
});

const ddb = mockClient(DynamoDBClient);
beforeEach(() => ddb.reset());

describe('HTTP telemetry', () => {
  const KEY = 'client-secret-key-123';
  const body = { currency: 'EUR' };
  const setup = () => {
    const metrics = recordingMetrics();
    const log = recordingLog();
    const { lines } = log;
    const app = composeHttpHandler({
      dynamo: new DynamoDBClient({ region: 'eu-west-1' }),
      config: testConfig(),
      callbackSecrets: staticCallbackSecrets(JSON.stringify({ [APP]: [SECRET] })),
      retry: { sleep: async () => {}, maxAttempts: 3 },
      metrics,
      log,
    });
    return { app, metrics, lines };
  };
  const claimed = (fingerprint: string) =>
    new TransactionCanceledException({
      message: 'cancelled',
      $metadata: {},
      CancellationReasons: [
        {
          Code: 'ConditionalCheckFailed',
          Item: marshall({ fingerprint, statusCode: 201, body: '{"id":"a"}', expiresAt: 9e9 }),
        },
        { Code: 'None' },
      ],
    });

  it('counts a replay and logs correlation fields with a hashed key, never the raw key', async () => {
    const { app, metrics, lines } = setup();
    ddb
      .on(TransactWriteItemsCommand)
      .rejects(claimed(requestFingerprint(OPERATION_IDS.createAccount, {}, body)));
    const res = await app(
      httpEvent('POST', '/v1/accounts', { principal: 'alice', idempotencyKey: KEY, body }),
    );
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect(metrics.counts.get('IdempotentReplay')).toBe(1);
    const line = lines.find((l) => l.message === 'request');
    expect(line?.fields).toMatchObject({
      principal: 'alice',
      route: 'POST /v1/accounts',
      status: 201,
      replayed: true,
      requestId: expect.any(String),
      idempotencyKeyHash: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(JSON.stringify(lines)).not.toContain(KEY);
  });

  it('counts a reused key', async () => {
    const { app, metrics } = setup();
    ddb.on(TransactWriteItemsCommand).rejects(claimed('another-fingerprint'));
    const res = await app(
      httpEvent('POST', '/v1/accounts', { principal: 'a', idempotencyKey: KEY, body }),
    );
    expect(res.statusCode).toBe(422);
    expect(metrics.counts.get('IdempotencyKeyReused')).toBe(1);
  });

  it('counts conflict retries and storage throttles', async () => {
    const { app, metrics } = setup();
    const cancel = (code: string) =>
      new TransactionCanceledException({
        message: 'cancelled',
        $metadata: {},
        CancellationReasons: [{ Code: 'None' }, { Code: code }],
      });
    ddb
      .on(TransactWriteItemsCommand)
      .rejectsOnce(cancel('TransactionConflict'))
      .rejectsOnce(cancel('ThrottlingError'))
      .resolves({});
    await app(httpEvent('POST', '/v1/accounts', { principal: 'a', idempotencyKey: KEY, body }));
    expect(metrics.counts.get('TransactionConflictRetry')).toBe(1);
    expect(metrics.counts.get('StorageThrottle')).toBe(1);
  });

  it('counts a signature failure and logs neither the signature nor the body', async () => {
    const { app, metrics, lines } = setup();
    const event = signedCallback(callbackBody({ executionId: crypto.randomUUID(), sequence: 1 }), {
      secrets: ['wrong-secret-0000000000'],
    });
    const res = await app(event);
    expect(res.statusCode).toBe(401);
    expect(metrics.counts.get('CallbackSignatureFailure')).toBe(1);
    const logged = JSON.stringify(lines);
    expect(logged).not.toContain(event.headers['callback-signature']);
    expect(logged).not.toContain('specversion');
  });
});

describe('callback outcome telemetry', () => {
  const taskId = '77777777-7777-4777-8777-777777777777';
  const executionId = '88888888-8888-4888-8888-888888888888';
  const execution: ExecutionRecord = {
    id: executionId,
    taskId,
    applicationId: APP,
    status: 'RUNNING',
    progress: 10,
    lastSequence: 5,
    gaps: [],
    gapsTruncated: false,
    version: 3,
    createdAt: 'x',
    updatedAt: 'x',
  };
  const task = (current: string): TaskRecord => ({
    id: taskId,
    accountId: 'a',
    ownerId: 'o',
    format: 'csv',
    status: 'RUNNING',
    progress: 10,
    currentExecutionId: current,
    createdAt: 'x',
    updatedAt: 'x',
  });

  it.each<[string, number, string, CallbackWriteResult, string]>([
    ['applied', 6, executionId, 'committed', 'CallbackApplied'],
    ['stale', 4, executionId, 'committed', 'CallbackStale'],
    ['superseded', 6, 'another-execution', 'committed', 'CallbackSuperseded'],
    ['duplicate', 6, executionId, 'duplicate', 'CallbackDuplicate'],
  ])('counts %s', async (outcome, sequence, current, write, metric) => {
    const metrics = recordingMetrics();
    const callbacks = fakeCallbackPort({
      findExecution: async () => ({ execution, task: task(current) }),
      applyCallback: async () => write,
    });
    const app = createHttpApp({
      ...quietRuntime(),
      ...otherPorts(),
      callbacks,
      callbackSecrets: staticCallbackSecrets(JSON.stringify({ [APP]: [SECRET] })),
      config: testConfig(),
      metrics,
      log: recordingLog(),
    });
    const res = await app(signedCallback(callbackBody({ executionId, sequence })));
    expect(JSON.parse(res.body)).toEqual({ outcome });
    expect(metrics.counts.get(metric)).toBe(1);
  });

  it('counts and logs a gap with the execution and the missing numbers', async () => {
    const metrics = recordingMetrics();
    const log = recordingLog();
    const { lines } = log;
    const app = createHttpApp({
      ...quietRuntime(),
      ...otherPorts(),
      callbacks: fakeCallbackPort({
        findExecution: async () => ({ execution, task: task(executionId) }),
      }),
      callbackSecrets: staticCallbackSecrets(JSON.stringify({ [APP]: [SECRET] })),
      config: testConfig(),
      metrics,
      log,
    });
    await app(signedCallback(callbackBody({ executionId, sequence: 9 })));
    expect(metrics.counts.get('SequenceGap')).toBe(3);
    expect(lines.find((l) => l.message === 'sequence gap')?.fields).toMatchObject({
      executionId,
      taskId,
      applicationId: APP,
      missing: [6, 7, 8],
    });
  });
});

describe('ledger event telemetry', () => {
  const A = '99999999-9999-4999-8999-999999999999';
  const consumer = (write: 'committed' | 'duplicate' | 'unknown') => {
    const metrics = recordingMetrics();
    const log = recordingLog();
    const { lines } = log;
    const handle = createEventsConsumer({
      ...quietRuntime(),
      events: new EventService(
        fakeEventLedgerPort(),
        fakeMovementPort({
          post: async () =>
            write === 'unknown'
              ? { kind: 'account_rejected', account: undefined }
              : { kind: write },
        }),
        {
          newId: randomUUID,
          inboxRetentionSeconds: 60,
          gapRefetchAfterSeconds: 300,
          backdateLimitDays: 90,
        },
      ),
      deadLetters: fakeDeadLetters(),
      metrics,
      log,
    });
    return { handle, metrics, lines };
  };

  it('counts a duplicate', async () => {
    const { handle, metrics } = consumer('duplicate');
    await handle(sqsEvent(sqsRecord(ledgerEvent({ subject: A }))));
    expect(metrics.counts.get('InboxDuplicate')).toBe(1);
  });

  it('counts dead letters by error_code and logs the event identity', async () => {
    const { handle, metrics, lines } = consumer('unknown');
    await handle(sqsEvent(sqsRecord(ledgerEvent({ id: 'e-1', subject: A }), 'm-1')));
    await handle(sqsEvent(sqsRecord('not json')));
    expect(metrics.counts.get('DeadLetter[errorCode=unknown_account]')).toBe(1);
    expect(metrics.counts.get('DeadLetter[errorCode=invalid_json]')).toBe(1);
    expect(lines.find((l) => l.message === 'ledger event dead-lettered')?.fields).toMatchObject({
      messageId: 'm-1',
      eventSource: 'urn:producer:a',
      eventId: 'e-1',
      errorCode: 'unknown_account',
    });
  });

  it('counts gaps by the numbers missing', async () => {
    const { handle, metrics } = consumer('committed');
    await handle(sqsEvent(sqsRecord(ledgerEvent({ subject: A, sequence: 4 }))));
    expect(metrics.counts.get('SequenceGap')).toBe(3);
    expect(metrics.counts.get('LedgerEventApplied')).toBe(1);
  });
});

describe('Lambda telemetry wiring', () => {
  const captured = () => {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      streams: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) },
    };
  };
  const lambdaContext = {
    awsRequestId: 'req-1',
    functionName: 'ledger-http',
    invokedFunctionArn: 'arn:aws:lambda:eu-west-1:1:function:ledger-http',
    memoryLimitInMB: '512',
  } as Context;

  it('emits CloudWatch EMF with the namespace, dimensions and counts after each invocation', async () => {
    const { out, streams } = captured();
    const telemetry = lambdaTelemetry('ledger-test', streams);
    const handler = telemetry.instrument(async () => {
      telemetry.metrics.count('DeadLetter', 1, { name: 'errorCode', value: 'schema_invalid' });
      telemetry.metrics.count('IdempotentReplay', 2);
      telemetry.metrics.count('IdempotentReplay');
      telemetry.metrics.seconds(METRICS.creditIntakeLag, 1.5);
      return 'ok';
    });
    expect(await handler({})).toBe('ok');
    const emf = out.map((l) => JSON.parse(l));
    expect(emf).toHaveLength(2);
    expect(emf[0]).toMatchObject({
      errorCode: 'schema_invalid',
      DeadLetter: 1,
      service: 'ledger-test',
    });
    expect(emf[0]._aws.CloudWatchMetrics[0]).toEqual({
      Namespace: 'IdempotentLedger',
      Dimensions: [['service', 'errorCode']],
      Metrics: [{ Name: 'DeadLetter', Unit: 'Count' }],
    });
    expect(emf[1]).toMatchObject({
      IdempotentReplay: [2, 1],
      [METRICS.creditIntakeLag]: 1.5,
      service: 'ledger-test',
    });
    expect(emf[1]._aws.CloudWatchMetrics[0]).toEqual({
      Namespace: 'IdempotentLedger',
      Dimensions: [['service']],
      Metrics: [
        { Name: 'IdempotentReplay', Unit: 'Count' },
        { Name: METRICS.creditIntakeLag, Unit: 'Seconds' },
      ],
    });
    expect(emf[1]._aws.Timestamp).toBeGreaterThan(Date.now() - 60_000);
    // Flushed: a second invocation without metrics writes nothing.
    await handler({});
    expect(out).toHaveLength(4);
    await telemetry.instrument(async () => 'none')({});
    expect(out).toHaveLength(4);
  });

  it('writes JSON log lines with the service, the Lambda context, cold start once, and the trace id', async () => {
    const { out, err, streams } = captured();
    const telemetry = lambdaTelemetry('ledger-test', streams);
    const previous = process.env._X_AMZN_TRACE_ID;
    process.env._X_AMZN_TRACE_ID = 'Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1';
    try {
      const handler = telemetry.instrument(async () => {
        telemetry.log.info('request', { status: 201 });
        telemetry.log.error('failed', { errorName: 'Boom' });
      });
      await handler({}, lambdaContext);
      await handler({}, { ...lambdaContext, awsRequestId: 'req-2' });
    } finally {
      if (previous === undefined) delete process.env._X_AMZN_TRACE_ID;
      else process.env._X_AMZN_TRACE_ID = previous;
    }
    const [first, second] = out.map((l) => JSON.parse(l));
    expect(first).toEqual({
      level: 'INFO',
      message: 'request',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      service: 'ledger-test',
      cold_start: true,
      function_arn: lambdaContext.invokedFunctionArn,
      function_memory_size: 512,
      function_name: 'ledger-http',
      function_request_id: 'req-1',
      xray_trace_id: '1-5759e988-bd862e3fe1be46a994272793',
      status: 201,
    });
    expect(second).toMatchObject({ cold_start: false, function_request_id: 'req-2' });
    expect(err.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ level: 'ERROR', message: 'failed', errorName: 'Boom' }),
      expect.objectContaining({ level: 'ERROR', function_request_id: 'req-2' }),
    ]);
  });

  it('flushes early rather than put more than 100 values of one metric in a document', async () => {
    const { out, streams } = captured();
    const telemetry = lambdaTelemetry('ledger-test', streams);
    await telemetry.instrument(async () => {
      for (let i = 0; i < 150; i++) telemetry.metrics.count('InboxDuplicate');
    })({});
    const emf = out.map((l) => JSON.parse(l) as { InboxDuplicate: number[] });
    expect(emf.map((d) => d.InboxDuplicate.length)).toEqual([100, 50]);
  });
});
