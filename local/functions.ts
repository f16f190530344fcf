import type { HttpHandler } from '../functions/api/types';
import { createS3ResultObjects } from '../functions/aws/s3-result-objects';
import {
  EXPORT_JOBS_VISIBILITY_TIMEOUT_SECONDS,
  EXPORT_WORKER_TIMEOUT_SECONDS,
  exportDeadLetterSeconds,
  exportRetryProblems,
  exportRetryTiming,
} from '../functions/contract/exports';
import { CREDIT_INTAKE_BATCH_SIZE } from '../functions/contract/intake';
import { LOCAL_STAGE } from '../functions/contract/journal';
import { LOCAL_AWS } from '../functions/contract/local-stack';
import { MAX_RECEIVE_COUNT } from '../functions/contract/names';
import { MAX_CREDITS_PER_POSTING } from '../functions/domain/accounts/pending-credits';
import type { Log } from '../functions/domain/shared/log';
import { composeCreditIntakeHandler } from '../functions/handlers/credit-intake/compose';
import type { CreditIntakeHandler } from '../functions/handlers/credit-intake/consumer';
import { composeDispatcherHandler } from '../functions/handlers/dispatcher/compose';
import type { DispatcherHandler } from '../functions/handlers/dispatcher/dispatcher';
import { composeEventsHandler } from '../functions/handlers/events/compose';
import type { EventsHandler } from '../functions/handlers/events/consumer';
import { composeExportWorker } from '../functions/handlers/export-worker/compose';
import type { ExportJobsHandler } from '../functions/handlers/export-worker/consumer';
import { composeHttpHandler } from '../functions/handlers/http/compose';
import { composeJournalProjector } from '../functions/handlers/journal-projector/compose';
import type { JournalProjectorHandler } from '../functions/handlers/journal-projector/stream-handler';
import { composeReconciler, type ReconcileRun } from '../functions/handlers/reconciler/compose';
import { composeSearchIndexer } from '../functions/handlers/search-indexer/compose';
import type { SearchIndexerHandler } from '../functions/handlers/search-indexer/consumer';
import { composeSweeper, type SweepRun } from '../functions/handlers/sweeper/compose';
import { fixedCallbackSecrets } from '../functions/schemas/exports/callbacks';
import type { LocalResources } from './resources';
import type { Trigger } from './triggers/trigger';
import { localWebhookQueue, WEBHOOK_DELIVERY_TRIGGER } from './webhooks';

/**
 * Every function of the stack, built by its own composition (functions/handlers/<name>/compose.ts)
 * from the local clients, as its Lambda handler builds it on AWS. Only where the configuration
 * comes from differs: queue URLs are the emulator's, secrets are the parsed CALLBACK_SECRETS.
 * A new function adds one builder here and its entry in `LOCAL_TRIGGERS` below.
 */
export function localHttpHandler(
  local: Pick<LocalResources, 'config' | 'callbackSecrets' | 'dynamo' | 's3Endpoint'> &
    Partial<Pick<LocalResources, 'sqs' | 'queues'>>,
  log?: Log,
): HttpHandler {
  return composeHttpHandler({
    config: local.config,
    dynamo: local.dynamo,
    results: createS3ResultObjects({
      bucket: local.config.exportBucket,
      region: LOCAL_AWS.region,
      credentials: LOCAL_AWS.credentials,
      endpoint: local.s3Endpoint,
    }),
    callbackSecrets: fixedCallbackSecrets(local.callbackSecrets),
    ...localWebhookQueue(local),
    log,
  });
}

/**
 * How long a received export job stays hidden locally: the same visibility timeout as on AWS
 * (docs/contract.md §12), so failed jobs come back, report FAILED and dead-letter alike.
 */
export const EXPORT_JOB_VISIBILITY_SECONDS = EXPORT_JOBS_VISIBILITY_TIMEOUT_SECONDS;

/** The export worker (docs/contract.md §12), reporting to the local HTTP API at `apiUrl`. */
export function localExportWorkerHandler(
  local: LocalResources,
  apiUrl: string,
  log: Log,
): ExportJobsHandler {
  return composeExportWorker({
    config: { ...local.config, apiUrl, callbackSecrets: { document: local.callbackSecrets } },
    dynamo: local.dynamo,
    s3: local.s3,
    secrets: fixedCallbackSecrets(local.callbackSecrets),
    // Each job gets the Lambda's whole timeout, as a fresh invocation on AWS does.
    timeLeftMs: () => EXPORT_WORKER_TIMEOUT_SECONDS * 1000,
    progressIntervalMs: 500,
    log,
  });
}

export function localEventsHandler(local: LocalResources, log: Log): EventsHandler {
  return composeEventsHandler({
    config: {
      ...local.config,
      deadLetterQueueUrl: local.queues.deadLetters.url,
      gapRefetchAfterSeconds: local.gapRefetchAfterSeconds,
    },
    dynamo: local.dynamo,
    sqs: local.sqs,
    log,
  });
}

export function localDispatcherHandler(local: LocalResources, log: Log): DispatcherHandler {
  return composeDispatcherHandler({
    config: {
      ...local.config,
      exportJobsQueueUrl: local.queues.exportJobs.url,
      creditIntakeQueueUrl: local.queues.creditIntake.url,
    },
    dynamo: local.dynamo,
    sqs: local.sqs,
    log,
  });
}

/** The folder (docs/contract.md §24) on the local `credit-intake`. */
export function localCreditIntakeHandler(
  local: Pick<LocalResources, 'config' | 'dynamo' | 'sqs' | 'queues'>,
  log: Log,
): CreditIntakeHandler {
  return composeCreditIntakeHandler({
    config: { ...local.config, creditIntakeQueueUrl: local.queues.creditIntake.url },
    dynamo: local.dynamo,
    sqs: local.sqs,
    log,
  });
}

/** The journal projector (docs/contract.md §15), publishing to the local `ledger-journal`. */
export function localJournalProjector(
  local: Pick<LocalResources, 'config' | 'dynamo' | 'sns' | 'topics'> &
    Partial<Pick<LocalResources, 'sqs' | 'queues'>>,
  log: Log,
): JournalProjectorHandler {
  // With the stack's queues, it hands the search indexer each update (docs/contract.md §34).
  const search = local.queues ? { searchIndexQueueUrl: local.queues.searchIndex.url } : {};
  return composeJournalProjector({
    config: {
      ...local.config,
      journalTopicArn: local.topics.journal.arn,
      stage: LOCAL_STAGE,
      ...search,
    },
    dynamo: local.dynamo,
    sns: local.sns,
    ...(local.sqs ? { sqs: local.sqs } : {}),
    log,
  });
}

/** The search indexer (docs/contract.md §34) on the local `search-index`. */
export function localSearchIndexer(
  local: Pick<LocalResources, 'config' | 'dynamo'>,
  log: Log,
): SearchIndexerHandler {
  return composeSearchIndexer({ config: local.config, dynamo: local.dynamo, log });
}

/**
 * One sweep of due holds, execution deadlines and gaps (docs/contract.md §11, §12, §18),
 * publishing re-fetch requests to the local `ledger-gaps`.
 */
export function localSweeper(
  local: Pick<
    LocalResources,
    'config' | 'dynamo' | 'sns' | 'sqs' | 'queues' | 'topics' | 'gapRefetchAfterSeconds'
  >,
  log: Log,
): SweepRun {
  return composeSweeper({
    config: {
      ...local.config,
      gapRefetchAfterSeconds: local.gapRefetchAfterSeconds,
      gapTopicArn: local.topics.gaps.arn,
      stage: LOCAL_STAGE,
      creditIntakeQueueUrl: local.queues.creditIntake.url,
    },
    dynamo: local.dynamo,
    sns: local.sns,
    sqs: local.sqs,
    log,
  });
}

/** One reconciliation run (docs/contract.md §19). */
export function localReconciler(
  local: Pick<LocalResources, 'config' | 'dynamo'>,
  log: Log,
): ReconcileRun {
  return composeReconciler({ config: local.config, dynamo: local.dynamo, log });
}

/**
 * The export retries on the same arithmetic as the CDK stacks (docs/contract.md §12), as more
 * banner lines; a WARNING names the numbers when a failing job could not report FAILED and reach
 * the DLQ before its deadline (EXPORT_EXECUTION_TIMEOUT_SECONDS too short).
 */
function exportRetryLines(queue: string, deadlineSeconds: number): string {
  const timing = exportRetryTiming(deadlineSeconds);
  const lines = [
    `             a failing job gets ${timing.workerTimeoutSeconds} s a run and reappears after ${timing.visibilityTimeoutSeconds} s; receive ${timing.maxReceiveCount} reports FAILED, ${queue}-dlq after ${exportDeadLetterSeconds(timing)} s (deadline ${timing.deadlineSeconds} s)`,
    ...exportRetryProblems(timing).map((problem) => `  WARNING    ${problem}`),
  ];
  return lines.map((line) => `\n${line}`).join('');
}

/**
 * What invokes each function locally, as lib/ wires it on AWS, in start order: `npm start`
 * starts the HTTP API, then one trigger per entry (local/triggers/trigger.ts), and prints each
 * entry's banner line. Another consumer of a queue or of the table's stream is one more entry
 * (a stream consumer gets its own poller, so its own checkpoint per shard).
 */
export const LOCAL_TRIGGERS: readonly Trigger[] = [
  {
    kind: 'queue',
    name: 'events consumer',
    queue: 'ledgerEvents',
    batchSize: (settings) => settings.eventsBatchSize,
    maxConcurrency: (settings) => settings.eventsMaxConcurrency,
    visibilityTimeoutSeconds: (settings) => settings.sqsVisibilityTimeoutSeconds,
    tags: { trigger: 'poller', function: 'events' },
    handler: ({ resources }, log) => localEventsHandler(resources, log),
    banner: {
      label: 'Poller',
      text: ({ queues, settings }) =>
        `${queues.ledgerEvents.name} -> the events consumer: batches of up to ${settings.eventsBatchSize}, ${settings.eventsMaxConcurrency} at once, failed records reappear after ${settings.sqsVisibilityTimeoutSeconds} s, DLQ after ${MAX_RECEIVE_COUNT} receives`,
    },
  },
  {
    kind: 'stream',
    name: 'outbox dispatcher',
    tags: { trigger: 'stream', function: 'outbox' },
    handler: ({ resources }, log) => localDispatcherHandler(resources, log),
    banner: {
      label: 'Outbox',
      text: ({ queues, settings, streamArn }) =>
        `${settings.config.tableName} stream (${streamArn.split('/').at(-1)}) -> the outbox dispatcher -> ${queues.exportJobs.name}, and accounts with new pending credits -> ${queues.creditIntake.name}: from TRIM_HORIZON, batches of up to 100, a failed record is retried until it is delivered`,
    },
  },
  {
    kind: 'queue',
    name: 'credit folder',
    queue: 'creditIntake',
    batchSize: () => CREDIT_INTAKE_BATCH_SIZE,
    visibilityTimeoutSeconds: (settings) => settings.sqsVisibilityTimeoutSeconds,
    tags: { trigger: 'folder', function: 'intake' },
    handler: ({ resources }, log) => localCreditIntakeHandler(resources, log),
    banner: {
      label: 'Folder',
      text: ({ queues, settings }) =>
        `${queues.creditIntake.name} -> the credit folder: posts the pending credits of deferred accounts, up to ${MAX_CREDITS_PER_POSTING} per transaction, oldest first; failed runs reappear after ${settings.sqsVisibilityTimeoutSeconds} s, ${queues.creditIntakeDeadLetters.name} after ${MAX_RECEIVE_COUNT} receives`,
    },
  },
  {
    kind: 'stream',
    name: 'journal projector',
    tags: { trigger: 'stream', function: 'journal' },
    handler: ({ resources }, log) => localJournalProjector(resources, log),
    banner: {
      label: 'Journal',
      text: ({ settings, topics }) =>
        `${settings.config.tableName} stream -> the journal projector -> SNS ${topics.journal.name} -> ${topics.journal.tap.name} (raw delivery): its own checkpoint per shard, every change of an account as a record and a ledger.journal.v1 event`,
    },
  },
  {
    kind: 'queue',
    name: 'search indexer',
    queue: 'searchIndex',
    batchSize: () => 10,
    visibilityTimeoutSeconds: (settings) => settings.sqsVisibilityTimeoutSeconds,
    tags: { trigger: 'poller', function: 'search' },
    handler: ({ resources }, log) => localSearchIndexer(resources, log),
    banner: {
      label: 'Search',
      text: ({ queues }) =>
        `${queues.searchIndex.name} -> the search indexer (fed by the journal projector): metadata, reference and paymentId of accounts and entries; ${queues.searchIndexDeadLetters.name} after ${MAX_RECEIVE_COUNT} receives`,
    },
  },
  WEBHOOK_DELIVERY_TRIGGER,
  {
    kind: 'queue',
    name: 'export worker',
    queue: 'exportJobs',
    batchSize: () => 1,
    visibilityTimeoutSeconds: () => EXPORT_JOB_VISIBILITY_SECONDS,
    off: (settings) =>
      settings.exportWorker
        ? undefined
        : 'export worker off (EXPORT_WORKER=off): jobs wait on export-jobs',
    tags: { trigger: 'exports', function: 'export' },
    handler: ({ resources, apiUrl }, log) => localExportWorkerHandler(resources, apiUrl, log),
    banner: {
      label: 'Exports',
      text: ({ queues, settings }) =>
        settings.exportWorker
          ? `${queues.exportJobs.name} -> the export worker: one job at a time, CSV or JSON Lines to s3://${settings.config.exportBucket}/exports/, signed callbacks${exportRetryLines(queues.exportJobs.name, settings.config.exportExecutionTimeoutSeconds)}`
          : `${queues.exportJobs.name} -> no worker (EXPORT_WORKER=off): jobs wait, executions time out`,
    },
  },
  {
    kind: 'schedule',
    name: 'sweeper',
    intervalSeconds: (settings) => settings.sweepIntervalSeconds,
    tags: { trigger: 'sweep', function: 'sweep' },
    handler: ({ resources }, log) => localSweeper(resources, log),
    banner: {
      label: 'Sweeper',
      text: ({ settings, queues }) =>
        `every ${settings.sweepIntervalSeconds} s: expired holds, executions past their deadline (${settings.config.exportExecutionTimeoutSeconds} s) -> TIMED_OUT, gaps open ${settings.gapRefetchAfterSeconds} s -> ledger.gap.refetch.v1, deferred accounts with credits pending ${settings.config.intakeStrandedAfterSeconds} s -> ${queues.creditIntake.name}`,
    },
  },
  {
    kind: 'schedule',
    name: 'reconciler',
    intervalSeconds: (settings) => settings.reconcileIntervalSeconds,
    tags: { trigger: 'reconcile', function: 'reconcile' },
    handler: ({ resources }, log) => localReconciler(resources, log),
    banner: {
      label: 'Reconciler',
      text: ({ settings }) =>
        `every ${settings.reconcileIntervalSeconds} s: journals, entries, balances, holds, zero-sum; findings: npm run cli -- reconcile --findings`,
    },
  },
];
