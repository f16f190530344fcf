/**
 * `npm start`: the local stack. Services start in order and register how to stop; Ctrl-C
 * (SIGINT) or SIGTERM stops them newest first, so no DynamoDB Local JVM outlives this process.
 * Order: DynamoDB Local + table + its stream, SQS emulator + queues, the export bucket (S3 on
 * the same emulator), HTTP API, then every function of `LOCAL_TRIGGERS` (local/functions.ts)
 * behind its trigger: the events consumer on ledger-events, the outbox dispatcher on the
 * table's stream, the export worker on export-jobs (unless EXPORT_WORKER=off) and the sweeper
 * of due holds and execution deadlines. `ready` is printed after that.
 */
import { describeError } from '../functions/domain/shared/log';
import { banner } from './banner';
import { LOCAL_TRIGGERS, type LocalResources, localHttpHandler } from './functions';
import { startDynamoService } from './services/dynamodb/service';
import { reserveHttpPort, startHttpService } from './services/http/service';
import { Lifecycle } from './services/lifecycle';
import { startS3Service } from './services/s3/service';
import { reserveSqsPort, startSqsService } from './services/sqs/service';
import { type LocalSettings, readLocalSettings } from './settings';
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

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (!exiting) void shutdown(0, signal);
  });
}
process.on('uncaughtException', (error) => {
  err(`unexpected error: ${error.stack ?? error.message}`);
  void shutdown(1, 'unexpected error');
});
process.on('unhandledRejection', (reason) => {
  err(
    `unexpected error: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
  );
  void shutdown(1, 'unexpected error');
});

async function startStack(settings: LocalSettings): Promise<void> {
  await reserveHttpPort(settings.port);
  await reserveSqsPort({ port: settings.sqsPort, endpoint: settings.sqsEndpoint });

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
  const s3Endpoint = settings.s3Endpoint ?? sqs.endpoint;
  out(`creating the export bucket "${config.exportBucket}" on ${s3Endpoint}...`);
  const s3 = await startS3Service(lifecycle, s3Endpoint, config.exportBucket);
  const local: LocalResources = {
    config,
    callbackSecrets,
    dynamo: dynamo.client,
    sqs: sqs.client,
    queues: sqs.queues,
    s3,
    s3Endpoint,
  };

  out('starting the HTTP API...');
  const http = await startHttpService(lifecycle, {
    port: settings.port,
    handler: localHttpHandler(local),
    log: (line) => out(`[http] ${line}`),
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
      sqsEndpoint: sqs.endpoint,
      sqsExternal: sqs.external,
      queues: sqs.queues,
      streamArn: dynamo.stream.arn,
      s3Endpoint,
    }),
  );
  out('ready');
}

async function main(): Promise<void> {
  let settings: LocalSettings;
  try {
    settings = readLocalSettings(process.env);
  } catch (error) {
    err(`npm start: ${error instanceof Error ? error.message : String(error)}`);
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
