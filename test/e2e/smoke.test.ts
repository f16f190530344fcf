import { afterAll, beforeAll, describe, it } from 'vitest';
import { DEMO_CALLBACK_SECRET } from '../../functions/contract/local-stack';
import { runScript } from './support/run-script';
import { type LocalStack, startLocalStack } from './support/stack';

/**
 * CI runs the post-deploy smoke test against `npm start`, as an operator runs it against a
 * stage: `npm run smoke -- --url <base>` in its own process, reading its table and exit code.
 */
let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack();
});

afterAll(async () => {
  if (stack) await stack.interrupt();
});

function smoke(args: string[]) {
  return runScript('cli/smoke/main.ts', args, { SMOKE_CALLBACK_SECRET: '' }, 60_000);
}

const rows = (output: string) =>
  output.split('\n').filter((line) => /^(PASS|FAIL|SKIP) /.test(line));

// The two runs are independent (each makes its own throwaway accounts and keys, as runs against
// a stage do) and mostly wait on the stack: they run side by side.
describe.concurrent('npm run smoke against the local stack', () => {
  it('passes every check, the signed callback round trip included, and exits 0', async ({
    expect,
  }) => {
    const { code, output } = await smoke([
      '--url',
      stack.base,
      '--callback-secret',
      DEMO_CALLBACK_SECRET,
    ]);

    expect(output).toContain('smoke: PASS');
    expect(rows(output).filter((row) => !row.startsWith('PASS'))).toEqual([]);
    expect(rows(output).map((row) => row.slice(8).split('  ')[0])).toEqual([
      'the health check answers',
      'OpenAPI document is served',
      'problem types resolve to their documentation',
      'a request without identity is refused',
      'create a throwaway account',
      'replay: same key and body answer the first response',
      'mismatch: same key, other body is refused',
      'concurrent duplicates have one effect',
      'another principal cannot see the account',
      'a transfer moves money between two accounts',
      'a hold is placed, listed and read',
      'holds are captured and voided',
      'the export result route is served',
      'a ledger transaction is made, read and reversed; an empty account closes',
      "the journal reaches the account's version; as-of balances answer",
      'a batch applies its operations once; it and its operations replay',
      'signed callback is accepted (Callback-Signature)',
      'the same callback again is a duplicate',
      'a callback changed after signing is refused',
    ]);
    expect(code).toBe(0);
  });

  it('fails the callback check and exits 1 when the secret is wrong', async ({ expect }) => {
    const { code, output } = await smoke([
      '--url',
      stack.base,
      '--callback-secret',
      'not-the-configured-secret-000',
    ]);

    expect(rows(output).find((row) => row.includes('signed callback is accepted'))).toMatch(
      /^FAIL .*401 invalid_signature/,
    );
    expect(rows(output).filter((row) => row.startsWith('SKIP'))).toHaveLength(2);
    expect(output).toMatch(/smoke: FAIL \(1 of 19 checks\)/);
    expect(code).toBe(1);
  });
});
