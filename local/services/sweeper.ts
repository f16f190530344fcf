import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { composeSweeper } from '../../functions/sweeper/compose';
import { abortableSleep, describeError } from '../text-and-timing';
import type { Lifecycle } from './lifecycle';
import { lineLog } from './line-log';

export interface SweeperServiceOptions {
  readonly dynamoClient: DynamoDBClient;
  readonly tableName: string;
  /** Pause between sweeps (SWEEP_INTERVAL_SECONDS). */
  readonly intervalSeconds: number;
  /** The sweeper's structured log lines. */
  readonly log: (line: string) => void;
}

/**
 * The sweeper of contract §11, run every `intervalSeconds` inside `npm start` instead of the
 * scheduled Lambda: the same composition (functions/sweeper/compose.ts). A failed sweep is
 * logged and the loop goes on; what was due stays due.
 */
export function startSweeperService(lifecycle: Lifecycle, options: SweeperServiceOptions): void {
  const log = lineLog(options.log);
  const sweep = composeSweeper({
    client: options.dynamoClient,
    tableName: options.tableName,
    log,
  });
  const { signal } = lifecycle;
  const loop = (async () => {
    while (!signal.aborted) {
      try {
        await sweep();
      } catch (error) {
        log.error('sweep failed; retrying after the interval', { error: describeError(error) });
      }
      await abortableSleep(options.intervalSeconds * 1000, signal);
    }
  })();
  lifecycle.defer('sweeper', () => loop);
}
