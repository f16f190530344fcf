import { describe, it } from 'vitest';
import { groupAlive, portAnswers, startLocalStack } from './support/stack';

/**
 * docs/contract.md §9: any of SIGINT, SIGTERM or SIGHUP sent to the process `npm start` returns
 * (npm itself, not its process group as Ctrl-C in a terminal does) stops everything it started:
 * npm's shell, node, the DynamoDB Local JVM, and every port they listened on.
 */
const STOP_WITHIN_MS = 30_000;

async function until(condition: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return condition();
}

// Each signal has a stack of its own (its own process group, DynamoDB Local and ports) and
// checks only that group and those ports, so the three run side by side.
describe('npm start stops everything on a signal to its own pid', () => {
  it.concurrent.for(['SIGTERM', 'SIGHUP', 'SIGINT'] as const)(
    '%s',
    { timeout: 180_000 },
    async (signal, { expect }) => {
      const stack = await startLocalStack(
        {},
        { timeoutMs: 120_000, launcher: 'npm', dynamo: 'own' },
      );
      try {
        const ports = [stack.httpPort, stack.dynamoPort, stack.sqsPort];
        expect(await Promise.all(ports.map(portAnswers))).toEqual([true, true, true]);

        process.kill(stack.pid, signal);

        const gone = await until(() => !groupAlive(stack.pid), STOP_WITHIN_MS);
        expect(gone, `processes left in the group after ${signal}:\n${stack.output()}`).toBe(true);
        expect(await Promise.all(ports.map(portAnswers))).toEqual([false, false, false]);
      } finally {
        stack.kill();
      }
    },
  );
});
