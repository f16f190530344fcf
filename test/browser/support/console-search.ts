import { expect, it } from 'vitest';
import type { LocalStack } from '../../e2e/support/stack';
import { type ConsoleBrowser, rowOf } from './console-browser';
import { type ConsoleSeed, SEEDED, until } from './console-seed';

/**
 * The console's search box (docs/console.md, docs/contract.md §34) on the stack's index: the
 * seeded credit found by its metadata and reference as alice, never as bob; a malformed search
 * says why. Called inside the console test's describe.
 */
export function consoleSearchTests(
  context: () => { browser: ConsoleBrowser; seed: ConsoleSeed; stack: LocalStack },
): void {
  it('search: finds the indexed credit by metadata and reference, as its owner only', async () => {
    const { browser, seed } = context();
    const { order, reference } = SEEDED.searchable;
    const page = await browser.open('search');
    await page.getByLabel('Owner (principal)').fill('alice');
    await page.getByLabel('Metadata, one key=value a line').fill(`order=${order}`);
    await page.getByLabel('Reference').fill(reference);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.url()).toContain(`owner=alice&metadata.order=${order}`);
    // The index follows the journal within seconds: search again until it is there.
    const row = rowOf(page, 'search-transactions', reference);
    await until(async () => {
      if ((await row.count()) === 1) return true;
      await page.reload();
      await page.getByTestId('search-transactions').waitFor();
      return (await row.count()) === 1;
    }, 'the seeded credit in the search');
    const cells = await row.locator('td').allTextContents();
    expect(cells.slice(1, 7)).toEqual([
      seed.accountId,
      'credit',
      '20.00 EUR',
      reference,
      '—',
      `order=${order}`,
    ]);

    await page.getByLabel('Owner (principal)').fill('bob');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Transactions of bob').waitFor();
    await expect(page.getByTestId('search-transactions').textContent()).resolves.toBe(
      'Nothing on this page.',
    );

    await page.getByLabel('Owner (principal)').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'Could not load the search' });
    await expect(refused.textContent()).resolves.toContain(
      'give the owner (principal) to search as',
    );
    await page.close();
  });
}
