/**
 * `npm start`: the local stack. Services start in order and register how to stop; Ctrl-C
 * (SIGINT), SIGTERM, SIGHUP or the end of the process that started it (npm) stops them newest
 * first, so no DynamoDB Local JVM outlives this process.
 * Order: DynamoDB Local + table + its stream, SQS emulator + queues, the export bucket (S3 on
 * the same emulator), HTTP API, then every function of `LOCAL_TRIGGERS` (local/functions.ts)
 * behind its trigger: the events consumer on ledger-events, the outbox dispatcher on the
 * table's stream, the journal projector on the same stream (its own checkpoints) publishing to
 * the SNS topic ledger-journal, the export worker on export-jobs (unless EXPORT_WORKER=off) and the sweeper
 * of due holds and execution deadlines. `ready` is printed after that.
 */
import { composeConsole } from '../console/server/compose';
import { describeError, messageOf, stackOf } from '../functions/domain/shared/log';
import { banner } from './banner';
import { LOCAL_TRIGGERS, localHttpHandler } from './functions';
import type { LocalResources } from './resources';
import { reachExternalDynamo, startDynamoService } from './services/dynamodb/service';
import { EXTERNAL_ENDPOINT_WAIT_MS } from './services/external';
import { reserveHttpPort, startHttpService } from './services/http/service';
import { Lifecycle } from './services/lifecycle';
import { startS3Service } from './services/s3/service';
import type { LocalQueues, QueueRef } from './services/sqs/queues';
import { reachExternalSqs, reserveSqsPort, startSqsService } from './services/sqs/service';
import { startSnsService } from './services/sqs/sns';
import { type LocalSettings, readLocalSettings } from './settings';
import { lineLog } from './triggers/line-log';
import { startTrigger } from './triggers/trigger';

// The SDK warns on Node 20 about releases after January 2027; noise for a local stack (read when
// the first client is built, which happens below).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

// Output is best effort. When the reader goes away (`npm start | tee log` and Ctrl-C reaching
// tee first), a write fails with EPIPE; unhandled, that error would re-enter the
// uncaughtException handler below, which writes again, and the process would spin instead of
// stopping its services.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

const lifecycle = new Lifecycle((line) => out(`[stop] ${line}`));
let exiting = false;
let startup: Promise<void> | undefined;

/** Stops every service once, then exits with `code`. */
async function shutdown(code: number, reason: string): Promise<void> {
  if (exiting) return;
  exiting = true;
  out(`${reason}: stopping the local stack...`);
  await lifecycle.stopAllAfter(startup);
  out('stopped');
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (!exiting) void shutdown(0, signal);
  });
}

// `npm start` is npm, then its shell exec'd into this process. npm forwards SIGINT and SIGTERM;
// a signal it does not forward (SIGHUP to npm alone) ends npm without reaching us, and we would
// be orphaned, DynamoDB Local with us. So a new parent means the one that started us is gone.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent && !exiting) void shutdown(0, 'the parent process exited');
}, 250).unref();
process.on('uncaughtException', (error) => {
  err(`unexpected error: ${error.stack ?? error.message}`);
  void shutdown(1, 'unexpected error');
});
process.on('unhandledRejection', (reason) => {
  err(`unexpected error: ${stackOf(reason)}`);
  void shutdown(1, 'unexpected error');
});

async function startStack(settings: LocalSettings): Promise<void> {
  await reserveHttpPort(settings.port);
  await reserveSqsPort({ port: settings.sqsPort, endpoint: settings.sqsEndpoint });
  await reachExternalEndpoints(settings);

  out(
    settings.dynamoEndpoint
      ? `using DynamoDB at ${settings.dynamoEndpoint}`
      : 'starting DynamoDB Local...',
  );
  const dynamo = await startDynamoService(lifecycle, {
    port: settings.dynamoPort,
    endpoint: settings.dynamoEndpoint,
    tableName: settings.config.tableName,
    contention: settings.contention,
    log: (line) => out(`[contention] ${line}`),
    onCrash: (detail) => {
      if (exiting) return; // Ctrl-C in a terminal signals the JVM too: that exit is expected
      err(detail);
      void shutdown(1, 'DynamoDB Local died');
    },
  });

  const { config, callbackSecrets } = settings;
  out(
    settings.sqsEndpoint ? `using SQS at ${settings.sqsEndpoint}` : 'starting the SQS emulator...',
  );
  const sqs = await startSqsService(lifecycle, {
    port: settings.sqsPort,
    endpoint: settings.sqsEndpoint,
  });
  const snsEndpoint = settings.snsEndpoint ?? sqs.endpoint;
  out(`creating the journal and gap topics and their tap queues on ${snsEndpoint}...`);
  const sns = await startSnsService(lifecycle, snsEndpoint, sqs.client, [
    sqs.queues.webhookDeliveries,
  ]);
  const s3Endpoint = settings.s3Endpoint ?? sqs.endpoint;
  out(`creating the export bucket "${config.exportBucket}" on ${s3Endpoint}...`);
  const s3 = await startS3Service(lifecycle, s3Endpoint, config.exportBucket);
  const local: LocalResources = {
    config,
    callbackSecrets,
    dynamo: dynamo.client,
    sqs: sqs.client,
    queues: sqs.queues,
    sns: sns.client,
    topics: sns.topics,
    gapRefetchAfterSeconds: settings.gapRefetchAfterSeconds,
    s3,
    s3Endpoint,
    webhooks: settings.webhooks,
  };

  // The operator console (docs/console.md) on the API's port, reading the table and queues
  // directly; its action lines go to this output.
  const operatorConsole = await composeConsole({
    dynamo: dynamo.client,
    sqs: sqs.client,
    tableName: config.tableName,
    deadLetterQueues: consoleQueues(sqs.queues),
    gapRefetchAfterSeconds: settings.gapRefetchAfterSeconds,
    inboxRetentionSeconds: config.inboxRetentionSeconds,
    log: (line) => out(`[console] ${line}`),
  });

  out('starting the HTTP API...');
  const http = await startHttpService(lifecycle, {
    port: settings.port,
    // One line per request: the function's own `request` line (the adapter logs only what it
    // answers itself: /docs, a bad X-Principal-Id, an oversized body).
    handler: localHttpHandler(
      local,
      lineLog((line) => out(`[http] ${line}`)),
    ),
    log: (line) => out(`[http] ${line}`),
    pages: operatorConsole.handler,
  });

  const stack = { resources: local, apiUrl: http.url };
  for (const trigger of LOCAL_TRIGGERS) {
    await startTrigger(lifecycle, trigger, { settings, stack, stream: dynamo.stream, out });
  }

  lifecycle.signal.throwIfAborted();

  out(
    banner(settings, {
      httpUrl: http.url,
      dynamoEndpoint: dynamo.endpoint,
      dynamoExternal: dynamo.external,
      contentionEndpoint: dynamo.contentionEndpoint,
      dynamoLoopbackOnly: dynamo.loopbackOnly,
      sqsEndpoint: sqs.endpoint,
      sqsExternal: sqs.external,
      queues: sqs.queues,
      topics: sns.topics,
      snsEndpoint,
      streamArn: dynamo.stream.arn,
      s3Endpoint,
      consoleToken: operatorConsole.token,
    }),
  );
  out('ready');
}

/** The console's dead-letter queues, each beside the queue a redrive sends it back to. */
function consoleQueues(queues: LocalQueues) {
  const ref = (queue: QueueRef) => ({ name: queue.name, url: queue.url });
  return [
    { ...ref(queues.deadLetters), target: ref(queues.ledgerEvents) },
    { ...ref(queues.exportJobsDeadLetters), target: ref(queues.exportJobs) },
  ];
}

/** DYNAMODB_ENDPOINT and SQS_ENDPOINT must answer before anything slow starts. */
async function reachExternalEndpoints(settings: LocalSettings): Promise<void> {
  const waiting = (service: string, endpoint: string, variable: string) =>
    out(
      `waiting for ${service} at ${endpoint} (${variable}) to answer, up to ${EXTERNAL_ENDPOINT_WAIT_MS / 1000} s...`,
    );
  if (settings.dynamoEndpoint) {
    waiting('DynamoDB', settings.dynamoEndpoint, 'DYNAMODB_ENDPOINT');
    await reachExternalDynamo(settings.dynamoEndpoint, lifecycle.signal);
  }
  if (settings.sqsEndpoint) {
    waiting('SQS', settings.sqsEndpoint, 'SQS_ENDPOINT');
    await reachExternalSqs(settings.sqsEndpoint, lifecycle.signal);
  }
}

async function main(): Promise<void> {
  let settings: LocalSettings;
  try {
    settings = readLocalSettings(process.env);
  } catch (error) {
    err(`npm start: ${messageOf(error)}`);
    process.exit(2);
  }
  try {
    startup = startStack(settings);
    await startup;
  } catch (error) {
    if (exiting) return; // interrupted while starting: shutdown is already under way
    err(`npm start failed: ${describeError(error)}`);
    await shutdown(1, 'startup failed');
  }
}

void main();
