import { expect, it } from 'vitest';
import { clientFor, type LocalStack } from '../../e2e/support/stack';
import { type ConsoleBrowser, consoleTokenOf, rowOf, spawnConsole } from './console-browser';
import { PENDING_TABLE, seedPendingTable } from './console-pending';
import { type ConsoleSeed, until } from './console-seed';

/**
 * The console's deferred credits (docs/contract.md §24, §29), in the console test's browser.
 * On the stack's table the folder posts the seeded credits: the account shows none pending and
 * the intake lag "nothing pending". On a table without a stream (./console-pending.ts) the
 * credits stay pending: `npm run console` on it lists them oldest first with their ages, and
 * the intake lag puts that account first. Called inside the console test's describe.
 */
export function deferredCreditTests(
  context: () => { browser: ConsoleBrowser; seed: ConsoleSeed; stack: LocalStack },
): void {
  it('a deferred account on the stack: the folder posts its credits, nothing stays pending', async () => {
    const { browser, seed, stack } = context();
    const alice = clientFor(stack.base, 'alice');
    await until(async () => {
      const { data } = await alice.GET('/v1/accounts/{accountId}', {
        params: { path: { accountId: seed.deferredId } },
      });
      return data?.balance === 875;
    }, 'the folder posting 3.00 + 4.50 + 1.25 EUR');
    const page = await browser.open(`accounts/${seed.deferredId}`);
    await page.getByTestId('account-facts').waitFor();
    const field = (name: string) => page.locator(`dd[data-field="${name}"]`).textContent();
    await expect(field('Credit intake')).resolves.toBe('deferred');
    await expect(field('Balance')).resolves.toBe('8.75 EUR');
    await expect(page.getByTestId('pending-credits-table').textContent()).resolves.toBe(
      'No pending credits: every accepted credit is posted.',
    );
    await page.goto(`${stack.base}/console/#/intake`);
    const row = rowOf(page, 'intake-table', seed.deferredId);
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    expect(cells).toEqual([seed.deferredId, 'alice', 'deferred', '0', '—', '—']);
    await expect(page.getByTestId('intake-summary').textContent()).resolves.toBe(
      'Nothing pending: 1 deferred account(s), every accepted credit posted.',
    );
    await page.close();
  });

  it('pending credits: oldest first with their ages, and the intake lag worst first', async () => {
    const { browser, stack } = context();
    const pending = await seedPendingTable(stack.dynamoPort);
    const { child, output, exited } = spawnConsole(stack, PENDING_TABLE);
    try {
      await until(async () => /^ready$/m.test(output.text), 'npm run console ready', 60_000);
      const url = /operator console (http:\/\/127\.0\.0\.1:\d+)\/console\//.exec(output.text)?.[1];
      if (!url) throw new Error(`no console URL in ${output.text}`);

      const page = await browser.open(
        `accounts/${pending.accountId}`,
        url,
        consoleTokenOf(output.text),
      );
      await page.getByTestId('account-facts').waitFor();
      await expect(page.locator('dd[data-field="Credit intake"]').textContent()).resolves.toBe(
        'deferred',
      );
      const table = page.getByTestId('pending-credits-table');
      await expect(table.locator('caption').textContent()).resolves.toBe(
        'Pending credits, oldest first (3 of 3 shown)',
      );
      const rows = await table.locator('tbody tr').allTextContents();
      expect(rows).toHaveLength(3);
      for (const [i, id] of pending.pendingIds.entries()) {
        expect(rows[i]).toContain(id);
        expect(rows[i]).toContain(`card-settlement-${i + 1}`);
      }
      expect(rows[0]).toMatch(/credit3\.00 EUR.*3 min \d+ s/);
      expect(rows[2]).toMatch(/1\.25 EUR.*1 min \d+ s/);
      await expect(page.getByTestId('pending-credits-more').count()).resolves.toBe(0);
      await browser.shoot(page, 'account-pending');

      await page.goto(`${url}/console/#/intake`);
      const first = page.getByTestId('intake-table').locator('tbody tr').first();
      await first.waitFor();
      const cells = await first.locator('td').allTextContents();
      expect(cells.slice(0, 4)).toEqual([pending.accountId, 'alice', 'deferred', '3']);
      expect(cells[5]).toMatch(/^3 min \d+ s$/);
      await expect(rowOf(page, 'intake-table', pending.idleId).textContent()).resolves.toMatch(
        /deferred0——$/,
      );
      await expect(page.getByTestId('intake-summary').textContent()).resolves.toMatch(
        /^3 pending credit\(s\) in 1 of 2 deferred account\(s\)/,
      );
      await browser.shoot(page, 'intake');
      await first.getByRole('link').click();
      await page.getByTestId('pending-credits-table').locator('tbody tr').first().waitFor();
      await page.close();
    } finally {
      child.kill('SIGINT');
    }
    await expect(exited).resolves.toBe(0);
  });
}
