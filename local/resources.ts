import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SNSClient } from '@aws-sdk/client-sns';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { ServiceConfig } from '../functions/handlers/shared/config';
import type { SecretMap } from '../functions/schemas/exports/callbacks';
import type { LocalQueues } from './services/sqs/queues';
import type { LocalTopics } from './services/sqs/topics';
import type { LocalWebhookSettings } from './settings';

/**
 * What every function of the local stack is built from once its services are up: the clients,
 * the configuration and the parsed secrets (local/functions.ts builds them, local/triggers/
 * invokes them).
 */
export interface LocalResources {
  readonly config: ServiceConfig;
  readonly callbackSecrets: SecretMap;
  readonly dynamo: DynamoDBClient;
  readonly sqs: SQSClient;
  readonly queues: LocalQueues;
  /** SNS holding the journal topic (SNS_ENDPOINT, else fauxqs on the SQS endpoint). */
  readonly sns: SNSClient;
  readonly topics: LocalTopics;
  /** GAP_REFETCH_AFTER_SECONDS (docs/contract.md §18): the events consumer's and the sweeper's. */
  readonly gapRefetchAfterSeconds: number;
  /** S3 holding the export bucket (the emulator's, or S3_ENDPOINT). */
  readonly s3: S3Client;
  /** Its endpoint: result URLs are presigned path-style on it, so plain curl downloads them. */
  readonly s3Endpoint: string;
  /** The webhook delivery function's retry schedule and disable threshold (§32). */
  readonly webhooks: LocalWebhookSettings;
}
