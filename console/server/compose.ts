import { userInfo } from 'node:os';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { createAccountReader } from './accounts/reader';
import { createFindings } from './books/findings';
import { buildConsole, loadBundle } from './bundle/bundle';
import { createGaps } from './gaps/gaps';
import { type ConsoleHandler, createConsoleHandler } from './http/handler';
import { newConsoleToken } from './http/token';
import { createIntakeReader } from './intake/intake';
import { createDeadLetters, type DeadLetterQueueRef } from './queues/dead-letters';
import { createConsoleSearch } from './search/search';
import { createConsoleWebhooks } from './webhooks/webhooks';

export interface ConsoleComposition {
  readonly dynamo: DynamoDBClient;
  readonly sqs: SQSClient;
  readonly tableName: string;
  readonly deadLetterQueues: readonly DeadLetterQueueRef[];
  /** The stage's GAP_REFETCH_AFTER_SECONDS: when a gap counts as overdue. */
  readonly gapRefetchAfterSeconds: number;
  /** How long a waiver's inbox item is kept, as the events consumer keeps it. */
  readonly inboxRetentionSeconds: number;
  /** One line per action, and what could not be answered. */
  readonly log: (line: string) => void;
  /** @default the OS user running the process */
  readonly user?: string;
  /** @default () => new Date() */
  readonly clock?: () => Date;
  /** A build of console/web to serve. @default built (or reused) now */
  readonly bundleDir?: string;
  /** @default a new random token (http/token.ts): each start makes its own */
  readonly token?: string;
}

/** The console's handler and the token its API requires (printed in its URL's fragment). */
export interface ComposedConsole {
  readonly handler: ConsoleHandler;
  readonly token: string;
}

/** Who runs the console: the OS user, as every action line names it. */
export function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'unknown';
  }
}

/**
 * The one composition of the console, used by `npm start` (local/start.ts), `npm run console`
 * (console/server/main.ts) and the tests: the project's own readers and the events' waiver
 * command on the given clients, behind the console's HTTP handler.
 */
export async function composeConsole(options: ConsoleComposition): Promise<ComposedConsole> {
  const { dynamo: client, tableName } = options;
  const token = options.token ?? newConsoleToken();
  const clock = options.clock ?? (() => new Date());
  const bundleDir = options.bundleDir ?? (await buildConsole(options.log));
  const intake = createIntakeReader({ client, tableName, clock });
  const handler = createConsoleHandler({
    accounts: createAccountReader({
      client,
      tableName,
      gapRefetchAfterSeconds: options.gapRefetchAfterSeconds,
      clock,
      intake,
    }),
    deadLetters: createDeadLetters(options.sqs, options.deadLetterQueues),
    gaps: createGaps({
      client,
      tableName,
      gapRefetchAfterSeconds: options.gapRefetchAfterSeconds,
      inboxRetentionSeconds: options.inboxRetentionSeconds,
      clock,
    }),
    findings: createFindings(client, tableName),
    intake,
    search: createConsoleSearch({ client, tableName }),
    webhooks: createConsoleWebhooks({ client, tableName }),
    bundle: await loadBundle(bundleDir),
    user: options.user ?? osUser(),
    token,
    log: options.log,
  });
  return { handler, token };
}
