import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { ServiceConfig } from '../../functions/config';
import { createDynamoHttpApp } from '../../functions/http/dynamo-app';
import type { HttpHandler } from '../../functions/http/types';
import { fixedCallbackSecrets, type SecretMap } from '../../functions/secrets/callback-secrets';

/**
 * The one place the local stack wires the real HTTP app: the same wiring the Lambda runs
 * (functions/http/handler.ts), on the local DynamoDB client, with the secrets settings parsed.
 */
export function buildHttpHandler(deps: {
  dynamoClient: DynamoDBClient;
  s3: S3Client;
  config: ServiceConfig;
  callbackSecrets: SecretMap;
}): HttpHandler {
  return createDynamoHttpApp({
    client: deps.dynamoClient,
    s3: deps.s3,
    config: deps.config,
    callbackSecrets: fixedCallbackSecrets(deps.callbackSecrets),
  });
}
