import { spawn } from 'node:child_process';
import { expect, it } from 'vitest';
import { CONSOLE_ROUTES } from '../../../console/shared/api';
import type { LocalStack } from '../../e2e/support/stack';
import type { ConsoleBrowser } from './console-browser';
import { CONSOLE_TABLE, type ConsoleSeed, until } from './console-seed';

/**
 * The console's own authentication and its answers to malformed input (docs/contract.md §29
 * "Console"), in the browser and through `npm run console` itself: run from console.test.ts
 * beside the other console tests, on its stack.
 */
export function consoleAuthTests(
  context: () => {
    browser: ConsoleBrowser;
    seed: ConsoleSeed;
    stack: LocalStack;
  },
) {
  it('an API request without the token is 401, a GET too; a page opened without it says how to get one', async () => {
    const { browser, stack } = context();
    for (const path of [CONSOLE_ROUTES.accounts, CONSOLE_ROUTES.deadLetters]) {
      const answer = await fetch(`${stack.base}${path}`);
      expect(answer.status).toBe(401);
      await expect(answer.json()).resolves.toMatchObject({
        error: expect.stringContaining('X-Console-Token'),
      });
    }
    const page = await browser.context.newPage();
    await page.goto(`${stack.base}/console/#/accounts`);
    const alert = page.getByRole('alert').filter({ hasText: /\S/ });
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toContain('/console/#token=');
    await page.close();
  });

  it('a malformed id or escape is a message in the page, never a blank app', async () => {
    const { browser } = context();
    for (const id of ['not-an-account', '%E0%A4%A']) {
      const page = await browser.open(`accounts/${id}`);
      const alert = page.getByRole('alert').filter({ hasText: /\S/ });
      await alert.waitFor();
      await expect(alert.textContent()).resolves.toMatch(/not an account id|malformed %-escape/);
      await expect(page.getByRole('navigation').textContent()).resolves.toContain('Accounts');
      await page.close();
    }
  });

  it('`npm run console` itself: it prints its URL with a token, and a SIGTERM to npm stops it', async () => {
    const { stack } = context();
    const args = ['run', '-s', 'console', '--', '--port', '0'];
    const child = spawn('npm', [...args, '--dynamodb', `http://127.0.0.1:${stack.dynamoPort}`], {
      cwd: process.cwd(),
      env: { ...process.env, TABLE_NAME: CONSOLE_TABLE, SQS_PORT: String(stack.sqsPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const add = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on('data', add);
    child.stderr.on('data', add);
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    await until(async () => /^ready$/m.test(output), 'npm run console ready', 60_000);
    const url = /operator console (http:\/\/127\.0\.0\.1:(\d+))\/console\/#token=\S+/.exec(output);
    expect(url?.[1]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    child.kill('SIGTERM');
    await expect(exited).resolves.toBe(0);
    await expect(fetch(`${url?.[1]}/console/`)).rejects.toThrow();
  });
}
