import { describe, expect, it } from 'vitest';
import { startDynamoLocalOnFreePort } from '../../../kit/dynamo-local';
import {
  DynamoPortTakenError,
  type RunningDynamo,
} from '../../../local/services/dynamodb/dynamodb-local';

/** Ports handed out in order, and a start that refuses the ports in `taken` as the JVM would. */
function fakes(ports: number[], taken: Set<number>, failure?: Error) {
  const tried: number[] = [];
  return {
    tried,
    port: async () => ports.shift() ?? 0,
    start: async (port: number): Promise<RunningDynamo> => {
      tried.push(port);
      if (failure) throw failure;
      if (taken.has(port)) throw new DynamoPortTakenError(port, 'Failed to bind to /127.0.0.1');
      return { endpoint: `http://127.0.0.1:${port}`, loopbackOnly: true, stop: async () => {} };
    },
  };
}

describe('DynamoDB Local on a free port', () => {
  it('tries another port when the one found free was taken before the JVM bound it', async () => {
    const f = fakes([4001, 4002, 4003], new Set([4001, 4002]));
    const dynamo = await startDynamoLocalOnFreePort(f);
    expect(dynamo.endpoint).toBe('http://127.0.0.1:4003');
    expect(f.tried).toEqual([4001, 4002, 4003]);
  });

  it('gives up after its attempts, with the last refusal', async () => {
    const f = fakes([4001, 4002, 4003], new Set([4001, 4002, 4003]));
    await expect(startDynamoLocalOnFreePort({ ...f, attempts: 2 })).rejects.toThrow(
      DynamoPortTakenError,
    );
    expect(f.tried).toEqual([4001, 4002]);
  });

  it('never retries any other failure', async () => {
    const f = fakes([4001, 4002], new Set(), new Error('Is Java 17+ installed?'));
    await expect(startDynamoLocalOnFreePort(f)).rejects.toThrow('Is Java 17+ installed?');
    expect(f.tried).toEqual([4001]);
  });
});
