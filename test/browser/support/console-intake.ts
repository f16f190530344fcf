import { expect, it } from 'vitest';
import { type ConsoleBrowser, rowOf } from './console-browser';
import type { ConsoleSeed } from './console-seed';

/**
 * The console's deferred credits (docs/contract.md §24, §29), in the console test's browser on
 * its seed: the deferred account's page lists its pending credits oldest first, the intake-lag
 * page lists the account with its count and oldest credit. Called inside its describe.
 */
export function deferredCreditTests(
  context: () => { browser: ConsoleBrowser; seed: ConsoleSeed },
): void {
  it('a deferred account: its intake mode and its pending credits, oldest first', async () => {
    const { browser, seed } = context();
    const page = await browser.open(`accounts/${seed.deferredId}`);
    await page.getByTestId('account-facts').waitFor();
    await expect(page.locator('dd[data-field="Credit intake"]').textContent()).resolves.toBe(
      'deferred',
    );
    await expect(page.locator('dd[data-field="Balance"]').textContent()).resolves.toBe('0.00 EUR');
    const table = page.getByTestId('pending-credits-table');
    await expect(table.locator('caption').textContent()).resolves.toBe(
      'Pending credits, oldest first (3 of 3 shown)',
    );
    const rows = await table.locator('tbody tr').allTextContents();
    expect(rows).toHaveLength(3);
    for (const [i, id] of seed.pendingIds.entries()) {
      expect(rows[i]).toContain(id);
      expect(rows[i]).toContain(`card-settlement-${i + 1}`);
    }
    expect(rows[0]).toMatch(/credit.*3\.00 EUR/);
    expect(rows[1]).toContain('4.50 EUR');
    await expect(page.getByTestId('pending-credits-more').count()).resolves.toBe(0);
    await browser.shoot(page, 'account-pending');
    await page.close();
  });

  it('intake lag: the deferred account, its pending count and its oldest credit', async () => {
    const { browser, seed } = context();
    const page = await browser.open('intake');
    const row = rowOf(page, 'intake-table', seed.deferredId);
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    expect(cells.slice(0, 4)).toEqual([seed.deferredId, 'alice', 'deferred', '3']);
    expect(cells[5]).toMatch(/^\d+ (s|min \d+ s)$/);
    await expect(page.getByTestId('intake-summary').textContent()).resolves.toMatch(
      /^3 pending credit\(s\) in 1 of 1 deferred account\(s\)/,
    );
    await browser.shoot(page, 'intake');
    // The account links to its page.
    await row.getByRole('link').click();
    await page.getByTestId('pending-credits-table').waitFor();
    await page.close();
  });
}
