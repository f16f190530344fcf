import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { CONSOLE_API, CONSOLE_ROUTES } from '../../../console/shared/api';
import type { LocalStack } from '../../e2e/support/stack';
import { queueDepth } from '../../support/queue-depth';
import { type ConsoleBrowser, consoleTokenOf, REBOUND_HOST } from './console-browser';
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

  it('another site’s page is refused even with the token (Sec-Fetch-Site, Origin), a rebound name too (Host)', async () => {
    const { browser, seed, stack } = context();
    const token = consoleTokenOf(stack.output());
    const actionLines = () =>
      stack
        .output()
        .split('\n')
        .filter((l) => l.startsWith('[console] action='));
    const linesBefore = actionLines().length;
    const depthBefore = await queueDepth(seed.producer.sqs, seed.producer.dlqUrl);
    const read = `${stack.base}${CONSOLE_ROUTES.accounts}`;
    const redrive = `${stack.base}${CONSOLE_ROUTES.redrive}`;
    const order = { queue: 'ledger-events-dlq', confirm: true };
    // Another site, on a server of its own at localhost (the console is at 127.0.0.1): a link
    // to a console read, and the classic cross-site form whose text/plain body is JSON.
    const other = createServer((_req, res) => {
      const field = JSON.stringify({ ...order, pad: '' }).slice(0, -2);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<!doctype html><title>another site</title><a href="${read}">accounts</a>` +
          `<form method="post" action="${redrive}" enctype="text/plain">` +
          `<input type="hidden" name='${field}' value='"}'><button>Redrive</button></form>`,
      );
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherOrigin = `http://localhost:${(other.address() as AddressInfo).port}`;
    const page = await browser.context.newPage();
    try {
      const cdp = await browser.context.newCDPSession(page);
      await cdp.send('Network.enable');
      const preflights: number[] = [];
      cdp.on('Network.responseReceived', (e) => {
        if (e.type === 'Preflight') preflights.push(e.response.status);
      });
      await page.goto(`${otherOrigin}/`);

      // As the page's script can: the token header makes the fetch preflighted, the console
      // refuses the preflight, and the browser never sends the POST.
      const sent = await page.evaluate(
        ({ url, token, body }) =>
          fetch(url, {
            method: 'POST',
            headers: { 'x-console-token': token, 'content-type': 'application/json' },
            body,
          }).then(
            (r) => r.status,
            (e: unknown) => String(e),
          ),
        { url: redrive, token, body: JSON.stringify(order) },
      );
      expect(sent).toBe('TypeError: Failed to fetch');
      // The CDP event may arrive after the fetch has already failed in the page.
      await expect.poll(() => preflights).toEqual([403]);

      // The token handed to the page anyway (as if it had leaked): the route adds it, and the
      // JSON type, to the page's link and form, which need no preflight. Only the cross-site
      // rules stand between them and the console.
      await page.route(
        (url) => url.origin === stack.base && url.pathname.startsWith(CONSOLE_API),
        (route) =>
          route.continue({
            headers: {
              ...route.request().headers(),
              'x-console-token': token,
              'content-type': 'application/json',
            },
          }),
      );
      // The link: a GET carries no Origin, so Sec-Fetch-Site (cross-site) alone refuses it.
      const [got] = await Promise.all([
        page.waitForResponse(read),
        page.getByRole('link', { name: 'accounts' }).click(),
      ]);
      const gotHeaders = await got.request().allHeaders();
      expect(gotHeaders['x-console-token']).toBe(token);
      expect(gotHeaders.origin).toBeUndefined();
      expect(got.status()).toBe(403);
      await expect(got.json()).resolves.toEqual({
        error: expect.stringMatching(
          /^a cross-site request is refused.*\(Sec-Fetch-Site\)$/,
        ) as unknown,
      });
      // The form: a POST carries its Origin and is refused for it; nothing is redriven or logged.
      await page.goto(`${otherOrigin}/`);
      const [posted] = await Promise.all([
        page.waitForResponse(redrive),
        page.getByRole('button', { name: 'Redrive' }).click(),
      ]);
      expect(JSON.parse(posted.request().postData() ?? '')).toMatchObject(order);
      await expect(posted.request().allHeaders()).resolves.toMatchObject({
        origin: otherOrigin,
        'x-console-token': token,
        'content-type': 'application/json',
      });
      expect(posted.status()).toBe(403);
      await expect(posted.json()).resolves.toEqual({
        error: `requests from ${otherOrigin} are refused: only the console's own pages may call it`,
      });
      await page.unroute(() => true);
      expect(actionLines().length).toBe(linesBefore);
      expect(await queueDepth(seed.producer.sqs, seed.producer.dlqUrl)).toBe(depthBefore);

      // DNS rebinding: a name that resolves to the console's address but is not a loopback
      // name. Its page is same-origin with the console's port, so only Host refuses it.
      const rebound = `http://${REBOUND_HOST}:${new URL(stack.base).port}`;
      const doc = await page.goto(`${rebound}/console/`);
      expect(doc?.status()).toBe(403);
      const answer = await page.evaluate(
        ({ path, token }) =>
          fetch(path, { headers: { 'x-console-token': token } }).then(async (r) => ({
            status: r.status,
            body: (await r.json()) as unknown,
          })),
        { path: CONSOLE_ROUTES.accounts, token },
      );
      expect(answer).toEqual({
        status: 403,
        body: {
          error: 'the console answers requests addressed to a loopback name only (Host header)',
        },
      });
    } finally {
      await page.close();
      other.close();
    }
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
