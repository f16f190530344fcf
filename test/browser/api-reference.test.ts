import { mkdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, type LocalStack, startLocalStack } from '../e2e/support/stack';

/**
 * `npm start` serves the API reference at /docs: a real headless Chromium (the distribution's
 * package, see .ci/run) loads it from the running local stack and must render every route of
 * the OpenAPI document. The screenshot is kept for a human to look at.
 */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SCREENSHOT_DIR = join(process.cwd(), 'test-output', 'browser');

let stack: LocalStack;
let browser: BrowserContext;
let profile: string;
let page: Page;
/** Every request the page made to another origin than the stack's. */
const foreign: string[] = [];

beforeAll(async () => {
  stack = await startLocalStack();
  profile = await mkdtemp(join(tmpdir(), 'ledger-chromium-'));
  // A fresh profile per run (playwright passes it as --user-data-dir).
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 1600 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // One page for the three tests: Swagger UI renders every route, seconds of CPU a load.
  page = await browser.newPage();
  page.on('request', (request) => {
    if (!request.url().startsWith(stack.base)) foreign.push(request.url());
  });
  await page.goto(`${stack.base}/docs`);
  await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
  if (stack) await stack.interrupt();
});

describe('API reference page', () => {
  it('renders every route of the OpenAPI document from the local stack, with no outside request', async () => {
    const { data } = await clientFor(stack.base).GET('/v1/openapi.json');
    const document = data as { paths: Record<string, Record<string, unknown>> };
    const rendered = await page.locator('.opblock-summary-path').allTextContents();
    const expected = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map(() => path),
    );
    expect(rendered.map((text) => text.replace(/\u200b/g, '')).sort()).toEqual(expected.sort());
    await expect(page.locator('.info .title').textContent()).resolves.toContain(
      'idempotent-ledger',
    );
    expect(foreign).toEqual([]);

    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = join(SCREENSHOT_DIR, 'api-reference.png');
    await page.screenshot({ path: file, fullPage: true });
    expect(statSync(file).size).toBeGreaterThan(10_000);
  });

  it('groups the operations by tag, with summaries: no "default" list', async () => {
    const tags = await page.locator('.opblock-tag').allTextContents();
    expect(tags.map((t) => t.trim().split(/\s/)[0])).toEqual(
      expect.arrayContaining(['accounts', 'transfers', 'holds', 'exports', 'callbacks', 'health']),
    );
    expect(tags.join(' ')).not.toMatch(/^default/m);
    const summaries = await page.locator('.opblock-summary-description').allTextContents();
    expect(summaries.filter((text) => text.trim() === '')).toEqual([]);
  });

  // Last: it opens two operations on the page the others read.
  it('"Try it out" creates an account and credits it as the pre-filled demo principal: 201 twice', async () => {
    const account = await tryItOut(page, 'accounts', 'createAccount', {
      'Idempotency-Key': `browser-account-${Date.now()}`,
      body: JSON.stringify({ currency: 'EUR', name: 'From the browser' }),
    });
    expect(account.status, account.body).toBe('201');
    const { id } = JSON.parse(account.body) as { id: string };

    const credit = await tryItOut(page, 'accounts', 'postTransaction', {
      accountId: id,
      'Idempotency-Key': `browser-credit-${Date.now()}`,
      body: JSON.stringify({ type: 'credit', amount: 2500, currency: 'EUR' }),
    });
    expect(credit.status, credit.body).toBe('201');
    expect(JSON.parse(credit.body)).toMatchObject({ accountId: id, amount: 2500 });

    // The account is the demo principal's: the README's curls (alice) see it.
    const read = await clientFor(stack.base, 'alice').GET('/v1/accounts/{accountId}', {
      params: { path: { accountId: id } },
    });
    expect(read.data?.balance).toBe(2500);
    // Still nothing asked of another origin, "Try it out" included.
    expect(foreign).toEqual([]);
  });
});

/** Expands an operation, presses "Try it out", fills its parameters and body, executes it. */
async function tryItOut(
  page: Page,
  tag: string,
  operationId: string,
  fields: Record<string, string>,
): Promise<{ status: string; body: string }> {
  const operation = page.locator(`#operations-${tag}-${operationId}`);
  await operation.locator('.opblock-summary').first().click();
  await operation.locator('.try-out__btn').click();
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'body') {
      await operation.locator('textarea.body-param__text').fill(value);
    } else {
      await operation.locator(`tr[data-param-name="${name}"] input`).fill(value);
    }
  }
  await operation.locator('button.execute').click();
  const live = operation.locator('.live-responses-table .response');
  await live.first().waitFor({ timeout: 30_000 });
  const status = (await live.locator('.response-col_status').first().textContent()) ?? '';
  const body = (await live.locator('.response-col_description pre').first().textContent()) ?? '';
  return { status: status.trim(), body };
}
