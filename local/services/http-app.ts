import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ServiceConfig } from '../../functions/config';
import { createDynamoHttpApp } from '../../functions/http/dynamo-app';
import type { HttpHandler } from '../../functions/http/types';
import { staticCallbackSecrets } from '../../functions/secrets/callback-secrets';
import { localCallbackSecretsJson } from '../callback-secrets';

/**
 * The one place the local stack wires the real HTTP app: the same wiring the Lambda runs
 * (functions/http/handler.ts), on the local DynamoDB client.
 */
export function buildHttpHandler(deps: {
  dynamoClient: DynamoDBClient;
  config: ServiceConfig;
  callbackSecretsJson?: string;
}): HttpHandler {
  return createDynamoHttpApp({
    client: deps.dynamoClient,
    config: deps.config,
    callbackSecrets: staticCallbackSecrets(
      deps.callbackSecretsJson ?? localCallbackSecretsJson(process.env),
    ),
  });
}
