import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ROUTES, REDRIVE_MAX_PER_CLICK } from '../../console/shared/api';
import { clientFor, type LocalStack, startLocalStack } from '../e2e/support/stack';
import { queueDepth } from '../support/queue-depth';
import { consoleAccountsTests } from './support/console-accounts';
import { consoleActionTests } from './support/console-actions';
import { consoleAuthTests } from './support/console-auth';
import {
  type ConsoleBrowser,
  consoleTokenOf,
  launchConsoleBrowser,
  actionLine as lineOf,
  rowOf,
  spawnConsole,
  withToken,
} from './support/console-browser';
import { deferredCreditTests } from './support/console-intake';
import { consoleSearchTests } from './support/console-search';
import {
  CONSOLE_TABLE,
  type ConsoleSeed,
  SEEDED,
  seedConsole,
  until,
} from './support/console-seed';
import { consoleWebhooksTests } from './support/console-webhooks';

/**
 * The operator console (docs/console.md, docs/contract.md §29) in a real headless Chromium
 * against `npm start`: every page shows the seeded values, the chart draws the journal, waive
 * and redrive work end to end and log one line each, and no page logs an error. Screenshots go
 * to test-output/browser/console/, or to docs/console/ with CONSOLE_SCREENSHOTS=docs (`npm run
 * console:screenshots`).
 */
const USER = userInfo().username;
// Gaps overdue after 12 × 1 s: the overdue page has something to show within the test.
const GAP_REFETCH_AFTER_SECONDS = 1;

let stack: LocalStack;
let browser: ConsoleBrowser;
let seed: ConsoleSeed;

beforeAll(async () => {
  // Its own DynamoDB Local and a table name the seed and `npm run console` are told.
  stack = await startLocalStack(
    { GAP_REFETCH_AFTER_SECONDS: String(GAP_REFETCH_AFTER_SECONDS), TABLE_NAME: CONSOLE_TABLE },
    { dynamo: 'own' },
  );
  seed = await seedConsole(stack);
  // The errors expected: Chromium's lines for the unknown account's 404 and the malformed ids'
  // 400s (test/browser/support/console-auth.ts), the search without an owner's 400
  // (./support/console-search.ts).
  browser = await launchConsoleBrowser(
    stack,
    (url) =>
      url.endsWith(`/api/accounts/${seed.unknownAccountId}`) ||
      /\/api\/accounts\/(not-an-account|%25E0%25A4%25A)$/.test(url) ||
      /\/api\/search\?owner=&/.test(url),
  );
});

afterAll(async () => {
  await browser?.close();
  seed?.producer.sqs.destroy();
  if (stack) await stack.interrupt();
});

const open = (route: string) => browser.open(route);
const shoot: ConsoleBrowser['shoot'] = (page, name) => browser.shoot(page, name);
const actionLine = (action: string, target: string) => lineOf(stack, action, target);

describe('operator console', () => {
  consoleAccountsTests(() => ({ browser, seed, stack }));

  it('an account: figures, a chart of its journal, journal, entries, holds, its gaps; waive there', async () => {
    const page = await open(`accounts/${seed.accountId}`);
    const field = (name: string) => page.locator(`dd[data-field="${name}"]`).textContent();
    await page.getByTestId('account-facts').waitFor();
    await expect(field('Balance')).resolves.toBe('32.00 EUR');
    await expect(field('Available')).resolves.toBe('27.00 EUR');
    await expect(field('Held')).resolves.toBe('5.00 EUR');
    await expect(field('Version')).resolves.toBe('5');
    await expect(field('Status')).resolves.toBe('open');
    await expect(field('Overdraft limit')).resolves.toBe('0.00 EUR');
    await expect(field('Credit intake')).resolves.toBe('direct');

    const chart = page.getByTestId('balance-chart');
    await expect(chart.getAttribute('data-points')).resolves.toBe('5');
    await expect(chart.locator('canvas').count()).resolves.toBeGreaterThan(0);
    await expect(chart.locator('figcaption').textContent()).resolves.toContain(
      'last balance 32.00 EUR',
    );
    const legend = await chart.locator('.u-legend').textContent();
    expect(legend).toContain('balance (EUR)');
    // The cursor at the left edge: the legend reads what the account held before its first
    // record (nothing), and the monitor's threshold.
    const plot = await chart.locator('.u-over').boundingBox();
    if (!plot) throw new Error('no plot area');
    await page.mouse.move(plot.x + 1, plot.y + plot.height / 2);
    const values = await chart.locator('.u-legend .u-value').allTextContents();
    expect(values.slice(1)).toEqual(['0', '0', '10']);
    await page.mouse.move(0, 0);

    await expect(page.getByTestId('journal-table').locator('tbody tr').count()).resolves.toBe(5);
    await expect(rowOf(page, 'journal-table', 'hold_placed').count()).resolves.toBe(1);
    await expect(page.getByTestId('entries-table').locator('tbody tr').count()).resolves.toBe(4);
    await expect(
      page.getByTestId('holds-table').locator('tbody tr').textContent(),
    ).resolves.toMatch(/5\.00 EUR.*active/);
    // The seeded monitor, through the monitors' own store: available 27.00 EUR is not below 10.00.
    await expect(
      page.getByTestId('monitors-table').locator('tbody tr').textContent(),
    ).resolves.toMatch(/^available < 10\.00 EURlow fundsfalse/);
    await expect(chart.getAttribute('data-thresholds')).resolves.toBe('1');
    expect(legend).toContain('monitor: available < 10.00 EUR');
    const gaps = page.getByTestId(`gaps-${seed.source}`);
    await expect(gaps.locator('tbody tr').count()).resolves.toBe(2);
    await shoot(page, 'account');

    // By keyboard: the waive button, the reason in the dialog, Tab to Confirm, Enter.
    await page.getByRole('button', { name: 'Waive 2' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.keyboard.type('producer lost event 2 (console test)');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Waived 2.' }).waitFor();
    await until(async () => (await gaps.locator('tbody tr').count()) === 1, 'gap 2 gone');
    await page.getByText(/Waived: 2 \(producer lost event 2/).waitFor();

    const line = await actionLine('waive', `gaps 2"`);
    expect(line).toBe(
      `[console] action=waive target="account ${seed.accountId} source ${seed.source} gaps 2" user="console owner=${USER}" outcome="waived 2"`,
    );
    const { data } = await clientFor(stack.base, 'alice').GET(
      '/v1/accounts/{accountId}/event-sources',
      { params: { path: { accountId: seed.accountId } } },
    );
    expect(data?.items[0]).toMatchObject({ gaps: [3] });
    await page.close();
  });

  it('dead letters: reasons listed; a redrive of the selected message applies it once fixed', async () => {
    const alice = clientFor(stack.base, 'alice');
    const page = await open('dead-letters');
    const table = 'dlq-ledger-events-dlq';
    const debit = rowOf(page, table, seed.poisonDebitId);
    await debit.waitFor();
    await expect(debit.textContent()).resolves.toContain('insufficient_funds');
    await expect(rowOf(page, table, seed.unknownAccountEventId).textContent()).resolves.toContain(
      'unknown_account',
    );
    await expect(
      page.getByText(`Redrive all (at most ${REDRIVE_MAX_PER_CLICK})`).count(),
    ).resolves.toBe(1);
    await shoot(page, 'dead-letters');

    // The cause fixed: money for the debit. Then the one message, selected, redriven.
    await alice.POST('/v1/accounts/{accountId}/transactions', {
      params: { path: { accountId: seed.accountId }, header: { 'Idempotency-Key': 'fund-debit' } },
      body: { type: 'credit', amount: SEEDED.poisonDebit, currency: 'EUR' },
    });
    await debit.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Redrive selected (1)' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Moved 1 message(s) to ledger-events' })
      .waitFor();
    await until(async () => {
      const { data } = await alice.GET('/v1/accounts/{accountId}', {
        params: { path: { accountId: seed.accountId } },
      });
      return data?.balance === 3200; // 3,200 + 50,000 − 50,000: the debit applied
    }, 'the redriven debit');
    // The page reloads its list: the moved letter leaves it, the other stays.
    await until(
      async () => (await rowOf(page, table, seed.poisonDebitId).count()) === 0,
      'the moved letter gone from the list',
    );
    await expect(rowOf(page, table, seed.unknownAccountEventId).count()).resolves.toBe(1);
    const line = await actionLine('redrive', 'ledger-events-dlq 1 selected');
    expect(line).toBe(
      `[console] action=redrive target="ledger-events-dlq 1 selected" user="console owner=${USER}" outcome="moved 1 to ledger-events, 1 left"`,
    );
    await page.close();
  });

  it('findings: the seeded finding, linked to its account', async () => {
    const page = await open('findings');
    const finding = rowOf(page, 'findings-table', seed.otherId);
    await finding.waitFor();
    await expect(finding.textContent()).resolves.toMatch(/balance.*0.*700.*seeded by the console/);
    await shoot(page, 'findings');
    await page.close();
  });

  it('an action without its confirmation does nothing (and says so)', async () => {
    const before = await queueDepth(seed.producer.sqs, seed.producer.dlqUrl);
    const post = (path: string, body: object) =>
      fetch(`${stack.base}${path}`, {
        method: 'POST',
        headers: withToken(stack.output(), { 'content-type': 'application/json' }),
        body: JSON.stringify(body),
      });
    const redrive = await post(CONSOLE_ROUTES.redrive, { queue: 'ledger-events-dlq' });
    expect(redrive.status).toBe(428);
    await expect(redrive.json()).resolves.toEqual({
      error: 'redrive needs a confirmation ("confirm": true); nothing was changed',
    });
    const waive = await post(CONSOLE_ROUTES.waive, {
      accountId: seed.accountId,
      source: seed.source,
      numbers: [1],
      reason: 'x',
      confirm: 'yes',
    });
    expect(waive.status).toBe(428);
    expect(await queueDepth(seed.producer.sqs, seed.producer.dlqUrl)).toBe(before);
    expect(stack.output()).toContain(
      `[console] action=redrive target="ledger-events-dlq all" user="console owner=${USER}" outcome="refused: not confirmed"`,
    );
  });

  it('npm run console serves the same console on a port of its own, and logs there', async () => {
    const { child, output: out, exited } = spawnConsole(stack, CONSOLE_TABLE);
    const output = () => out.text;
    try {
      await until(async () => /^ready$/m.test(output()), 'npm run console ready', 60_000);
      const url = /operator console (http:\/\/127\.0\.0\.1:\d+\/console\/)#token=/.exec(
        output(),
      )?.[1];
      expect(url).toMatch(/^http:/);
      const origin = new URL(url ?? '').origin;

      const page = await browser.open(
        `accounts/${seed.accountId}`,
        origin,
        consoleTokenOf(output()),
      );
      await expect(page.locator('dd[data-field="Owner"]').textContent()).resolves.toBe('alice');
      await page.close();

      const refused = await fetch(`${origin}${CONSOLE_ROUTES.redrive}`, {
        method: 'POST',
        headers: withToken(output(), { 'content-type': 'application/json' }),
        body: JSON.stringify({ queue: 'ledger-events-dlq' }),
      });
      expect(refused.status).toBe(428);
      await until(async () => output().includes('outcome="refused: not confirmed"'), 'its line');
      expect(output()).toContain(
        `[console] action=redrive target="ledger-events-dlq all" user="console owner=${USER}" outcome="refused: not confirmed"`,
      );
    } finally {
      child.kill('SIGINT');
    }
    await expect(exited).resolves.toBe(0);
  });

  deferredCreditTests(() => ({ browser, seed, stack }));
  consoleAuthTests(() => ({ browser, seed, stack }));
  it('overdue gaps: the gap is listed as overdue and waived where it is listed', async () => {
    const page = await open('gaps');
    // Overdue 12 × GAP_REFETCH_AFTER_SECONDS after it opened: after the tests above, so those
    // seconds pass in them rather than in a wait of its own; before the dialog tests, which leave
    // a gap of their own source open.
    await until(
      async () => {
        await page.reload();
        const row = rowOf(page, `gaps-${seed.source}`, 'overdue');
        return (await row.count()) === 1;
      },
      'gap 3 overdue',
      40_000,
    );
    const row = rowOf(page, `gaps-${seed.source}`, '3');
    await expect(row.textContent()).resolves.toContain('overdue');
    await shoot(page, 'gaps');

    await row.getByRole('button', { name: 'Waive 3' }).click();
    await page.getByLabel('Reason (required)').fill('written off after the re-fetch');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('No ledger-event source has an open gap.').waitFor();
    const line = await actionLine('waive', `gaps 3"`);
    expect(line).toContain(`user="console owner=${USER}" outcome="waived 3"`);
    await page.close();
  });

  consoleActionTests(() => ({ browser, seed, stack }));
  consoleSearchTests(() => ({ browser, seed, stack }));
  consoleWebhooksTests(() => ({ browser, seed, stack }));

  it('logged no console error and asked nothing of any other origin', () => {
    expect(browser.problems).toEqual([]);
  });
});
