import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { HttpHandler } from '../../functions/api/types';
import type { DeadLetter } from '../../functions/domain/events/port';
import { EventService } from '../../functions/domain/events/service';
import type { ResultObjectPort } from '../../functions/domain/exports/port';
import { createEventStore } from '../../functions/dynamodb/events/store';
import { createMovementStore } from '../../functions/dynamodb/movements/store';
import { createEventsConsumer, type EventsHandler } from '../../functions/handlers/events/consumer';
import { composeHttpHandler } from '../../functions/handlers/http/compose';
import type { ServiceConfig } from '../../functions/handlers/shared/config';
import { staticCallbackSecrets } from '../../functions/schemas/exports/callbacks';
import { testConfig } from '../support/config';
import { createTestTable } from '../support/dynamo';
import { ledgerApi } from '../support/ledger-api';
import { quietRuntime } from '../support/runtime';

export interface FixtureOptions {
  /** What the file is about in the configuration; `testConfig` gives the rest and the table. */
  readonly config?: Partial<ServiceConfig>;
  /** The callback secrets document (CALLBACK_SECRETS). @default '{}' */
  readonly callbackSecrets?: string;
  /** Export results, for files that read them without S3. */
  readonly results?: ResultObjectPort;
  /** The clock of the HTTP function and the events consumer. @default the real clock */
  readonly clock?: () => Date;
}

/** What an integration file talks to: one table, the HTTP function on it and its events consumer. */
export interface LedgerFixture {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  /** The HTTP function, as its Lambda handler composes it. */
  readonly app: HttpHandler;
  /** `ledgerApi` over `app`, as alice. */
  readonly api: ReturnType<typeof ledgerApi>;
  /** The ledger-events consumer on the same table; its dead letters land in `deadLetters`. */
  readonly consume: EventsHandler;
  /** Emptied before each test. */
  readonly deadLetters: DeadLetter[];
}

/**
 * The one setup of the integration files: a fresh table on the run's DynamoDB Local before the
 * file's tests (dropped after them), the HTTP function and the events consumer on it. Call it
 * at the top of a file: `app`, `api`, `consume` and `deadLetters` can be taken there; `client`
 * and `tableName` are read inside tests and hooks.
 */
export function useLedgerFixture(options: FixtureOptions = {}): LedgerFixture {
  let ready: Omit<LedgerFixture, 'deadLetters'> | undefined;
  let drop: (() => Promise<void>) | undefined;
  const deadLetters: DeadLetter[] = [];
  beforeAll(async () => {
    const table = await createTestTable();
    drop = table.drop;
    const { client, tableName } = table;
    const app = composeHttpHandler({
      dynamo: client,
      config: testConfig({ tableName, ...options.config }),
      callbackSecrets: staticCallbackSecrets(options.callbackSecrets ?? '{}'),
      ...(options.results ? { results: options.results } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    const consume = createEventsConsumer({
      ...quietRuntime(),
      events: new EventService(
        createEventStore({ client, tableName }),
        createMovementStore({ client, tableName }),
        {
          newId: randomUUID,
          inboxRetentionSeconds: 3600,
          gapRefetchAfterSeconds: 300,
          backdateLimitDays: 90,
        },
      ),
      deadLetters: { send: async (letter) => void deadLetters.push(letter) },
      ...(options.clock ? { clock: options.clock } : {}),
    });
    ready = { client, tableName, app, api: ledgerApi(app), consume };
  });
  afterAll(() => drop?.());
  beforeEach(() => {
    deadLetters.length = 0;
  });
  const get = (): Omit<LedgerFixture, 'deadLetters'> => {
    if (ready === undefined)
      throw new Error('the fixture is set up in beforeAll: read it in tests');
    return ready;
  };
  // Functions that call the ones beforeAll builds: a file can take them at its top level.
  const app: HttpHandler = (event) => get().app(event);
  const consume: EventsHandler = (event, context) => get().consume(event, context);
  return {
    get client() {
      return get().client;
    },
    get tableName() {
      return get().tableName;
    },
    app,
    api: ledgerApi(app),
    consume,
    deadLetters,
  };
}
