import { describe, expect, it } from 'vitest';
import { freePort } from '../../kit/free-port';
import { runScript } from './support/run-script';

/**
 * `npm start` against an endpoint that is not there (docs/contract.md §9): it says what it waits
 * for, and a refused connection stops it at once with the endpoint named, before anything slow
 * (the DynamoDB Local JVM) has started; no silent wait.
 */
describe('npm start with an unreachable DYNAMODB_ENDPOINT or SQS_ENDPOINT', () => {
  it.each([
    ['DYNAMODB_ENDPOINT', 'DynamoDB'],
    ['SQS_ENDPOINT', 'SQS'],
  ])('%s: says what it waits for, then stops at the first refusal', async (variable, service) => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const { code, output } = await runScript(
      'local/start.ts',
      [],
      {
        PORT: String(await freePort()),
        DYNAMODB_PORT: String(await freePort()),
        SQS_PORT: String(await freePort()),
        DYNAMODB_ENDPOINT: '',
        SQS_ENDPOINT: '',
        [variable]: closed,
      },
      30_000,
    );

    expect(code, output).toBe(1);
    expect(output).toContain(`waiting for ${service} at ${closed} (${variable})`);
    expect(output).toMatch(
      new RegExp(`npm start failed: Error: ${variable} ${closed} refused the connection`),
    );
    expect(output).not.toContain('starting DynamoDB Local');
    expect(output).not.toMatch(/did not answer in/);
  });
});
