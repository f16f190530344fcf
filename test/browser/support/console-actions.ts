import { randomUUID } from 'node:crypto';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ledgerEvent } from '../../../kit/ledger-events';
import { clientFor, key, type LocalStack } from '../../e2e/support/stack';
import { type ConsoleBrowser, rowOf } from './console-browser';
import { type ConsoleSeed, SEEDED_HTML, until } from './console-seed';

/**
 * The console's dialogs and what it shows of data it did not write (docs/contract.md §29):
 * a dialog says what it will do, Cancel and Escape send nothing, waive needs a reason, "Redrive
 * all" moves what is there, and seeded markup is text. Run from console.test.ts, after the
 * tests that redrove the funded debit.
 */
export function consoleActionTests(
  context: () => {
    browser: ConsoleBrowser;
    seed: ConsoleSeed;
    stack: LocalStack;
  },
) {
  /** Every POST the page sends from now on. */
  const posts = (page: Page) => {
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') sent.push(r.url());
    });
    return sent;
  };

  it('seeded markup is text: the account name and a dead letter body show it, nothing runs', async () => {
    const { browser } = context();
    const page = await browser.open('accounts?q=carol');
    const row = rowOf(page, 'accounts-table', 'Carol & Co');
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(SEEDED_HTML);
    const letters = await browser.open('dead-letters');
    const body = letters.getByTestId('dlq-body').filter({ hasText: 'seededHtmlRan' });
    await letters.getByText('Open').first().waitFor();
    for (const summary of await letters.getByText('Open', { exact: true }).all())
      await summary.click();
    await expect(body.textContent()).resolves.toContain(JSON.stringify(SEEDED_HTML).slice(1, -1));
    for (const p of [page, letters]) {
      const ran = () => (globalThis as { __seededHtmlRan?: number }).__seededHtmlRan;
      await expect(p.evaluate(ran)).resolves.toBeUndefined();
      await expect(p.locator('img[src="x"]').count()).resolves.toBe(0);
      await p.close();
    }
  });

  it('waive: Confirm waits for a reason; Cancel and Escape send nothing', async () => {
    const { browser, seed } = context();
    const source = 'urn:console-test:dialogs';
    for (const sequence of [1, 3]) {
      await seed.producer.sqs.send(
        new SendMessageCommand({
          QueueUrl: seed.producer.queueUrl,
          MessageBody: JSON.stringify(
            ledgerEvent({ source, subject: seed.accountId, sequence, amount: 1 }),
          ),
        }),
      );
    }
    const page = await browser.open(`accounts/${seed.accountId}`);
    const sent = posts(page);
    const waive = page.getByTestId(`gaps-${source}`).getByRole('button', { name: 'Waive 2' });
    await until(async () => {
      await page.reload();
      await page.getByTestId('account-facts').waitFor();
      return (await waive.count()) === 1;
    }, 'gap 2 of the dialog source');
    await waive.click();
    const dialog = page.getByRole('dialog');
    const confirm = dialog.getByRole('button', { name: 'Confirm' });
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await dialog.getByLabel('Reason (required)').fill('   ');
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await dialog.getByLabel('Reason (required)').fill('not needed');
    await expect(confirm.isEnabled()).resolves.toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await waive.click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(sent).toEqual([]);
    await page.close();
  });

  it('"Redrive all": its dialog lists what it moves, Cancel/Escape send nothing, a poison letter comes back', async () => {
    const { browser, seed, stack } = context();
    const page = await browser.open('dead-letters');
    const sent = posts(page);
    const table = 'dlq-ledger-events-dlq';
    await rowOf(page, table, seed.unknownAccountEventId).waitFor();
    const all = page.getByRole('button', { name: /^Redrive all/ });
    const dialog = page.getByRole('dialog', { name: /Redrive up to/ });
    await all.click();
    await expect(dialog.getByTestId('redrive-moves').textContent()).resolves.toContain(
      seed.unknownAccountEventId,
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await all.click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(sent).toEqual([]);

    await all.click();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Moved 1 message(s) to ledger-events' })
      .waitFor();
    expect(sent).toHaveLength(1);
    // Its line (an earlier test's unconfirmed "all" logged one too).
    await until(
      async () =>
        /target="ledger-events-dlq all" .*outcome="moved 1 to ledger-events/.test(stack.output()),
      'the redrive-all line',
    );
    // Still an unknown account: the consumer dead-letters it again, and the list shows it.
    await until(async () => {
      await page.reload();
      await page.getByRole('heading', { name: /ledger-events-dlq/ }).waitFor();
      return (await rowOf(page, table, seed.unknownAccountEventId).count()) === 1;
    }, 'the poison letter back in the DLQ');
    await page.close();
  });

  it('the chart: one record with a monitor line, and records committed together (screenshots)', async () => {
    const { browser, stack } = context();
    const dana = clientFor(stack.base, 'dana');
    const { data: account } = await dana.POST('/v1/accounts', {
      params: { header: key(randomUUID()) },
      body: { currency: 'EUR', name: 'Dana, one credit' },
    });
    if (!account) throw new Error('no account');
    const accountId = account.id;
    await dana.POST('/v1/accounts/{accountId}/transactions', {
      params: { path: { accountId }, header: key(randomUUID()) },
      body: { type: 'credit', amount: 1250, currency: 'EUR' },
    });
    await dana.POST('/v1/accounts/{accountId}/monitors', {
      params: { path: { accountId }, header: key(randomUUID()) },
      body: { field: 'balance', operator: 'lt', value: 2000, description: 'top up' },
    });
    const page = await browser.open(`accounts/${accountId}`);
    const chart = page.getByTestId('balance-chart');
    await until(async () => {
      await page.reload();
      await page.getByTestId('account-facts').waitFor();
      // No chart until the journal has a record: count first, so nothing waits on it.
      return (await chart.count()) === 1 && (await chart.getAttribute('data-points')) === '1';
    }, 'the one journal record');
    await expect(chart.getAttribute('data-thresholds')).resolves.toBe('1');
    await expect(chart.locator('.u-legend').textContent()).resolves.toContain(
      'monitor: balance < 20.00 EUR',
    );
    await browser.shoot(page, 'account-one-record');

    // Three credits of one batch: coalesced into ONE transaction, so one commit time (§25).
    const { data: second } = await dana.POST('/v1/accounts', {
      params: { header: key(randomUUID()) },
      body: { currency: 'EUR', name: 'Dana, one batch' },
    });
    if (!second) throw new Error('no account');
    const credit = (n: number) => ({
      key: `dana-batch-${n}`,
      op: 'credit' as const,
      accountId: second.id,
      body: { type: 'credit' as const, amount: 500 * n, currency: 'EUR' },
    });
    await dana.POST('/v1/batches', {
      params: { header: key(randomUUID()) },
      body: { mode: 'independent', operations: [credit(1), credit(2), credit(3)] },
    });
    await page.goto(`${stack.base}/console/#/accounts/${second.id}`);
    await until(async () => {
      await page.reload();
      await page.getByTestId('account-facts').waitFor();
      // No chart until the journal has a record: count first, so nothing waits on it.
      return (await chart.count()) === 1 && (await chart.getAttribute('data-points')) === '3';
    }, 'the batch in the journal');
    await expect(chart.getAttribute('data-points')).resolves.toBe('3');
    const times = await page
      .getByTestId('journal-table')
      .locator('tbody tr td:nth-child(7)')
      .allTextContents();
    expect(new Set(times).size).toBe(1);
    await browser.shoot(page, 'account-equal-timestamps');
    await page.close();
  });

  it('accounts search: owner and name prefix in any case, the query in the URL', async () => {
    const { browser, stack } = context();
    const page = await browser.open('accounts?q=CAROL');
    await page.getByText('Accounts matching "CAROL"').waitFor();
    await rowOf(page, 'accounts-table', 'Carol & Co').waitFor();
    await expect(page.getByTestId('accounts-table').locator('tbody tr').count()).resolves.toBe(1);
    await expect(page.getByLabel('Account id, owner id or name').inputValue()).resolves.toBe(
      'CAROL',
    );
    await page.getByLabel('Account id, owner id or name').fill('dana, ONE');
    await page.keyboard.press('Enter');
    await rowOf(page, 'accounts-table', 'Dana, one batch').waitFor();
    await expect(page.getByTestId('accounts-table').locator('tbody tr').count()).resolves.toBe(2);
    expect(page.url()).toBe(`${stack.base}/console/#/accounts?q=dana%2C%20ONE`);
    await page.reload();
    await rowOf(page, 'accounts-table', 'Dana, one credit').waitFor();
    await page.close();
  });
}
