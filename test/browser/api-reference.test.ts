import { mkdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
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
    const page = await browser.newPage();
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(stack.base)) foreign.push(request.url());
    });

    await page.goto(`${stack.base}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });

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
    await page.close();
  });
});
