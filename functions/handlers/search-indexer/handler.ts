import { lambdaTelemetry } from '../../aws/telemetry';
import { SERVICE_NAMES } from '../../domain/shared/metrics';
import { createDynamoClient } from '../../dynamodb/table/client';
import { loadConfig } from '../shared/config';
import { composeSearchIndexer } from './compose';

// Built once per container: configuration is validated at cold start and fails loudly.
const config = loadConfig(process.env);
const telemetry = lambdaTelemetry(SERVICE_NAMES.searchIndexer);

export const handler = telemetry.instrument(
  composeSearchIndexer({
    config,
    dynamo: createDynamoClient(),
    log: telemetry.log,
    metrics: telemetry.metrics,
  }),
);
