import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { ServiceConfig } from '../functions/config';
import { composeDispatcherHandler } from '../functions/dispatcher/compose';
import type { DispatcherHandler } from '../functions/dispatcher/dispatcher';
import { composeEventsHandler } from '../functions/events/compose';
import type { EventsHandler } from '../functions/events/consumer';
import { composeHttpHandler } from '../functions/http/compose';
import type { HttpHandler } from '../functions/http/types';
import type { Log } from '../functions/observability/log';
import { fixedCallbackSecrets, type SecretMap } from '../functions/secrets/callback-secrets';
import { composeSweeper, type SweepRun } from '../functions/sweeper/compose';
import type { LocalQueues } from './sqs';

/**
 * Every function of the stack, built by its own composition (functions/<name>/compose.ts) from
 * the local clients, as its Lambda handler builds it on AWS. Only where the configuration comes
 * from differs: queue URLs are the emulator's, secrets are the parsed CALLBACK_SECRETS.
 * A new function adds one builder here and starts its trigger in local/start.ts.
 */
export interface LocalResources {
  readonly config: ServiceConfig;
  readonly callbackSecrets: SecretMap;
  readonly dynamo: DynamoDBClient;
  readonly sqs: SQSClient;
  readonly queues: LocalQueues;
}

export function localHttpHandler(
  local: Pick<LocalResources, 'config' | 'callbackSecrets' | 'dynamo'>,
  log?: Log,
): HttpHandler {
  return composeHttpHandler({
    config: local.config,
    dynamo: local.dynamo,
    callbackSecrets: fixedCallbackSecrets(local.callbackSecrets),
    log,
  });
}

export function localEventsHandler(local: LocalResources, log: Log): EventsHandler {
  return composeEventsHandler({
    config: { ...local.config, deadLetterQueueUrl: local.queues.deadLetters.url },
    dynamo: local.dynamo,
    sqs: local.sqs,
    log,
  });
}

export function localDispatcherHandler(local: LocalResources, log: Log): DispatcherHandler {
  return composeDispatcherHandler({
    config: { ...local.config, exportJobsQueueUrl: local.queues.exportJobs.url },
    dynamo: local.dynamo,
    sqs: local.sqs,
    log,
  });
}

export function localSweeper(local: Pick<LocalResources, 'config' | 'dynamo'>, log: Log): SweepRun {
  return composeSweeper({ config: local.config, dynamo: local.dynamo, log });
}
