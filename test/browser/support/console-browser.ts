import { spawn } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { LocalStack } from '../../e2e/support/stack';
import { until } from './console-seed';

/**
 * The console test's browser: a headless Debian Chromium, pages that record console errors,
 * page errors and requests to any other origin, and screenshots into test-output/browser/console/
 * or, with CONSOLE_SCREENSHOTS=docs (`npm run console:screenshots`), docs/console/.
 */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/**
 * A name that is not loopback but that this browser resolves to 127.0.0.1, as DNS rebinding
 * makes an attacker's name resolve: the console must refuse requests addressed to it (Host).
 */
export const REBOUND_HOST = 'console-rebound.example';
const SHOTS =
  process.env.CONSOLE_SCREENSHOTS === 'docs'
    ? join(process.cwd(), 'docs', 'console')
    : join(process.cwd(), 'test-output', 'browser', 'console');

export interface ConsoleBrowser {
  readonly context: BrowserContext;
  /** What pages logged as errors or asked of other origins (expected: nothing). */
  readonly problems: string[];
  /**
   * A new page at `<base>/console/#/<route>` (base: the stack's, or another console's origin),
   * first opened at the URL the console printed (`#token=…`), as an operator does.
   */
  open(route: string, base?: string, token?: string): Promise<Page>;
  /** A new page that records problems as `open`'s do (under `route`), before any navigation. */
  blank(route: string, base?: string): Promise<Page>;
  /** A full-page screenshot `<name>.png`, checked to be more than blank. */
  shoot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

/** `expectedError(url)`: a console error Chromium logs for that response is expected. */
export async function launchConsoleBrowser(
  stack: LocalStack,
  expectedError: (url: string) => boolean,
): Promise<ConsoleBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'ledger-console-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 1000 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--host-resolver-rules=MAP ${REBOUND_HOST} 127.0.0.1`,
    ],
  });
  mkdirSync(SHOTS, { recursive: true });
  const problems: string[] = [];
  const blank = async (route: string, base = stack.base): Promise<Page> => {
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' && !expectedError(m.location().url)) {
        problems.push(`${route}: console error ${m.text()}`);
      }
    });
    page.on('pageerror', (e) => problems.push(`${route}: ${e.message}`));
    page.on('request', (r) => {
      if (!r.url().startsWith(base)) problems.push(`${route}: request to ${r.url()}`);
    });
    return page;
  };
  return {
    context,
    problems,
    blank,
    async open(route, base = stack.base, token = consoleTokenOf(stack.output())) {
      const page = await blank(route, base);
      await page.goto(`${base}/console/#token=${token}`);
      await page.goto(`${base}/console/#/${route}`);
      return page;
    },
    async shoot(page, name) {
      // A screenshot of an error page is no screenshot of the page: nothing failed to load,
      // no unknown route, and the page's own heading is there.
      const errors = await page.locator('p.error').allTextContents();
      expect(errors.filter((text) => text.trim() !== '')).toEqual([]);
      await expect(page.getByText('There is no page').count()).resolves.toBe(0);
      await expect(page.locator('main h1').count()).resolves.toBeGreaterThan(0);
      const file = join(SHOTS, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      expect(statSync(file).size).toBeGreaterThan(5_000);
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** The token in the console URL a start printed (`…/console/#token=<token>`). */
export function consoleTokenOf(output: string): string {
  const token = /\/console\/#token=([A-Za-z0-9_-]+)/.exec(output)?.[1];
  if (!token) throw new Error(`no console URL with a token in:\n${output.slice(0, 2000)}`);
  return token;
}

/** The headers of a console API call made as its page makes it. */
export const withToken = (output: string, headers: Record<string, string> = {}) => ({
  ...headers,
  'x-console-token': consoleTokenOf(output),
});

export const rowOf = (page: Page, table: string, text: string) =>
  page.getByTestId(table).locator('tbody tr', { hasText: text });

/** Waits for the one action line the console prints for this action and target. */
export async function actionLine(stack: LocalStack, action: string, target: string) {
  let found = '';
  await until(async () => {
    found =
      stack
        .output()
        .split('\n')
        .find((l) => l.startsWith(`[console] action=${action} `) && l.includes(target)) ?? '';
    return found !== '';
  }, `the ${action} line`);
  return found;
}

/** `npm run console` (console/server/main.ts) on a free port against the stack's table. */
export function spawnConsole(stack: LocalStack, tableName: string) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'console/server/main.ts',
      '--port',
      '0',
      '--dynamodb',
      `http://127.0.0.1:${stack.dynamoPort}`,
      '--sqs',
      stack.sqsEndpoint,
    ],
    {
      cwd: process.cwd(),
      env: { ...process.env, TABLE_NAME: tableName },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = { text: '' };
  const add = (chunk: Buffer) => {
    output.text += chunk.toString();
  };
  child.stdout.on('data', add);
  child.stderr.on('data', add);
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  return { child, output, exited };
}
