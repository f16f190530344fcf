import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { lambdaTelemetry } from '../../aws/telemetry';
import { SERVICE_NAMES } from '../../domain/shared/metrics';
import { createDynamoClient } from '../../dynamodb/table/client';
import { loadConfig } from '../shared/config';
import { composeJournalProjector } from './compose';
import { journalProjectorEnv } from './env';

// Built once per container: configuration is validated at cold start and fails loudly.
const config = loadConfig(process.env, journalProjectorEnv);
const telemetry = lambdaTelemetry(SERVICE_NAMES.journalProjector);

export const handler = telemetry.instrument(
  composeJournalProjector({
    config,
    dynamo: createDynamoClient(),
    sns: new SNSClient({}),
    sqs: new SQSClient({}),
    log: telemetry.log,
    metrics: telemetry.metrics,
  }),
);
