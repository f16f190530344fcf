import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll } from 'vitest';

/**
 * The unit project's setup file. Unit files share one module graph (`isolate: false` in
 * vitest.config.ts), and `mockClient(DynamoDBClient)` stubs the class's prototype: a file that
 * leaves its stub in place would answer another file's real client. After each file, every
 * client class the unit tests mock gets its own `send` back.
 */
const MOCKED_CLIENTS = [
  DynamoDBClient,
  DynamoDBStreamsClient,
  S3Client,
  SecretsManagerClient,
  SNSClient,
  SQSClient,
];

afterAll(() => {
  for (const client of MOCKED_CLIENTS) {
    const send: unknown = client.prototype.send;
    const restore = (send as { restore?: unknown }).restore;
    if (typeof restore === 'function') restore.call(send);
  }
});
