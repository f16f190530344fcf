import {
  DynamoPortTakenError,
  type RunningDynamo,
  type StartDynamoOptions,
  startDynamoLocal,
} from '../local/services/dynamodb/dynamodb-local';
import { freePort } from './free-port';

export interface FreePortStart {
  /** DynamoDB Local's own options. */
  readonly options?: StartDynamoOptions;
  /** Starts tried before the last refusal is thrown. @default 3 */
  readonly attempts?: number;
  /** @default kit/free-port.ts's */
  readonly port?: () => Promise<number>;
  /** @default startDynamoLocal */
  readonly start?: (port: number, options: StartDynamoOptions) => Promise<RunningDynamo>;
}

/**
 * A DynamoDB Local on a free loopback port, for the tests, the bench and the soak. The port is
 * free when asked for, but another process (a parallel test file's JVM, an outgoing
 * connection) may take it before this JVM binds it: that start is then tried again on another
 * port, never any other failure.
 */
export async function startDynamoLocalOnFreePort(how: FreePortStart = {}): Promise<RunningDynamo> {
  const attempts = how.attempts ?? 3;
  const port = how.port ?? freePort;
  const start = how.start ?? ((p, options) => startDynamoLocal(p, undefined, options));
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await port(), how.options ?? {});
    } catch (error) {
      if (!(error instanceof DynamoPortTakenError) || attempt >= attempts) throw error;
    }
  }
}
