import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { HttpHandler } from '../../../functions/api/types';
import { silentLog } from '../../../functions/domain/shared/log';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import type { ServiceConfig } from '../../../functions/handlers/shared/config';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { testConfig } from '../config';
import { createTestTable } from '../dynamo';
import { type JournalTopic, journalApi, startJournalTopic, startProjector } from './journal';

/** A fresh table whose journal is projected for real, and the HTTP app on it. */
export interface JournalFixture {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly config: ServiceConfig;
  readonly topic: JournalTopic;
  readonly projector: Awaited<ReturnType<typeof startProjector>>;
  readonly app: HttpHandler;
  readonly api: ReturnType<typeof journalApi>;
  /** Stops the projector and the topic, then drops the table. */
  close(): Promise<void>;
}

/**
 * What a journal test file starts in its `beforeAll`: a table on the run's DynamoDB Local, the
 * journal topic, the projector on the table's stream, and the HTTP app composed as the Lambda
 * composes it (`overrides` on the test config).
 */
export async function startJournalFixture(
  overrides: Partial<ServiceConfig> = {},
): Promise<JournalFixture> {
  const { client, tableName, drop } = await createTestTable({ stream: true });
  const topic = await startJournalTopic();
  const projector = await startProjector(client, tableName, topic);
  const config = testConfig({ tableName, ...overrides });
  const app = composeHttpHandler({
    dynamo: client,
    config,
    callbackSecrets: staticCallbackSecrets('{}'),
    log: silentLog,
  });
  return {
    client,
    tableName,
    config,
    topic,
    projector,
    app,
    api: journalApi(app),
    close: async () => {
      await projector.stop();
      await topic.stop();
      await drop();
    },
  };
}
