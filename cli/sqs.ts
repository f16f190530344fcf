import { GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { describeError } from '../functions/domain/shared/log';
import { SQS_CREDENTIALS, SQS_REGION } from './config';
import { CliError } from './errors';

/** A client for the local SQS emulator (any credentials are accepted). */
export function sqsClient(endpoint: string): SQSClient {
  return new SQSClient({
    endpoint,
    region: SQS_REGION,
    credentials: SQS_CREDENTIALS,
    maxAttempts: 2,
  });
}

/** GetQueueUrl by name, with an error that says what to check. */
export async function queueUrl(
  client: SQSClient,
  endpoint: string,
  name: string,
  signal?: AbortSignal,
): Promise<string> {
  try {
    const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: name }), {
      abortSignal: signal,
    });
    if (!QueueUrl) throw new Error('no QueueUrl in the answer');
    return QueueUrl;
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new CliError(
      `cannot find queue "${name}" at ${endpoint} (${describeError(error)}). Is \`npm start\` running? ` +
        'Set SQS_PORT or SQS_ENDPOINT, or pass --sqs, if it is not on the default port.',
    );
  }
}
