import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { ACCOUNTS_PER_PAGE } from '../../../console/shared/api';
import { clientFor, type LocalStack } from '../../e2e/support/stack';
import { type ConsoleBrowser, consoleTokenOf, rowOf } from './console-browser';
import { type ConsoleSeed, until } from './console-seed';

/**
 * The Accounts page (docs/contract.md §31): the most recent accounts and the owner / name
 * search read the account directory a page at a time, the query and page in the address; an
 * account's empty states and an unknown account in words. Run from console.test.ts, on its
 * stack, first (the recent list's first page shows the seeded accounts).
 */
export function consoleAccountsTests(
  context: () => {
    browser: ConsoleBrowser;
    seed: ConsoleSeed;
    stack: LocalStack;
  },
) {
  const open = (route: string) => context().browser.open(route);
  const shoot: ConsoleBrowser['shoot'] = (page, name) => context().browser.shoot(page, name);

  it('accounts: the recent list and a search by owner show the seeded values', async () => {
    const { seed } = context();
    const page = await open('accounts');
    const alice = rowOf(page, 'accounts-table', seed.accountId);
    await alice.waitFor();
    await expect(alice.textContent()).resolves.toContain('32.00 EUR'); // 10 + 20 + 1 + 1
    await expect(alice.textContent()).resolves.toContain('27.00 EUR'); // less the 5.00 hold
    await expect(rowOf(page, 'accounts-table', seed.otherId).count()).resolves.toBe(1);
    await shoot(page, 'accounts');

    await page.getByLabel('Account id, owner id or name').fill('bob');
    await page.keyboard.press('Enter');
    await page.getByText('Accounts matching "bob"').waitFor();
    // The heading shows before the search answers: wait for its row, then count.
    await rowOf(page, 'accounts-table', 'Bob savings').waitFor();
    await expect(page.getByTestId('accounts-table').locator('tbody tr').count()).resolves.toBe(1);
    await expect(rowOf(page, 'accounts-table', 'Bob savings').count()).resolves.toBe(1);
    await page.close();
  });

  it('accounts: a search address set before the page listens is still followed', async () => {
    const { browser, stack } = context();
    const page = await browser.blank('accounts?q=bob');
    // The address changes once the console has rendered, before its effects run (they wait
    // for a paint): a page that only listened for later changes would show recent accounts.
    await page.addInitScript({
      content: `if (location.hash.startsWith('#token=')) addEventListener('DOMContentLoaded', () => {
        location.hash = '#/accounts?q=bob';
      });`,
    });
    await page.goto(`${stack.base}/console/#token=${consoleTokenOf(stack.output())}`);
    await page.getByText('Accounts matching "bob"').waitFor();
    await rowOf(page, 'accounts-table', 'Bob savings').waitFor();
    await page.close();
  });

  it('an empty account shows its empty states; an unknown one says so in words', async () => {
    const { seed, stack } = context();
    const page = await open(`accounts/${seed.otherId}`);
    await page.getByTestId('account-facts').waitFor();
    await expect(page.locator('dd[data-field="Balance"]').textContent()).resolves.toBe('0.00 EUR');
    for (const words of [
      'No journal records yet: the chart starts with the first change.',
      'No journal records yet.',
      'No entries yet.',
      'No holds.',
      'No ledger-event source has written to this account.',
    ]) {
      await expect(page.getByText(words, { exact: true }).count()).resolves.toBe(1);
    }
    const unknown = seed.unknownAccountId;
    await page.goto(`${stack.base}/console/#/accounts/${unknown}`);
    await expect(
      page.getByRole('alert').filter({ hasText: 'Could not load' }).textContent(),
    ).resolves.toBe(`Could not load the account: no account ${unknown}`);
    await page.close();
  });

  it('accounts: an owner with more than a page pages through the index, in any case', async () => {
    const { stack } = context();
    const owner = `Pager-${randomUUID().slice(0, 8)}`;
    const client = clientFor(stack.base, owner);
    const ids: string[] = [];
    for (let i = 0; i <= ACCOUNTS_PER_PAGE; i++) {
      const { data } = await client.POST('/v1/accounts', {
        params: { header: { 'Idempotency-Key': randomUUID() } },
        body: { currency: 'EUR', name: `Paged ${String(i).padStart(2, '0')}` },
      });
      if (!data) throw new Error('no account');
      ids.push(data.id);
    }
    const page = await open('accounts');
    // The newest account heads "most recent" (the index may trail the write by a moment).
    await until(async () => {
      await page.reload();
      return (await rowOf(page, 'accounts-table', ids.at(-1) ?? '').count()) === 1;
    }, 'the newest account listed');
    const rows = page.getByTestId('accounts-table').locator('tbody tr');
    await expect(rows.first().textContent()).resolves.toContain(ids.at(-1));
    await expect(rows.count()).resolves.toBe(ACCOUNTS_PER_PAGE);

    await page.getByLabel('Account id, owner id or name').fill(owner.toUpperCase());
    await page.keyboard.press('Enter');
    await page.getByText(`Accounts matching "${owner.toUpperCase()}"`).waitFor();
    await rowOf(page, 'accounts-table', ids.at(-1) ?? '').waitFor();
    await expect(rows.count()).resolves.toBe(ACCOUNTS_PER_PAGE);
    const firstPage = await rows.allTextContents();
    expect(new URL(page.url()).hash).toBe(`#/accounts?q=${owner.toUpperCase()}`);

    await page.getByRole('button', { name: 'Next page' }).click();
    await rowOf(page, 'accounts-table', ids[0] ?? '').waitFor();
    // The oldest, on the second page only; the URL names the page, so a reload stays there.
    await expect(rows.count()).resolves.toBe(1);
    expect(firstPage.join()).not.toContain(ids[0]);
    expect(new URL(page.url()).hash).toMatch(/&cursor=/);
    await page.reload();
    await rowOf(page, 'accounts-table', ids[0] ?? '').waitFor();
    await expect(rows.count()).resolves.toBe(1);
    await expect(page.getByRole('button', { name: 'Next page' }).count()).resolves.toBe(0);

    await page.getByRole('button', { name: 'First page' }).click();
    await rowOf(page, 'accounts-table', ids.at(-1) ?? '').waitFor();
    await expect(rows.count()).resolves.toBe(ACCOUNTS_PER_PAGE);

    // A name prefix in another case, by name.
    await page.getByLabel('Account id, owner id or name').fill('paged 2');
    await page.keyboard.press('Enter');
    await page.getByText('Accounts matching "paged 2"').waitFor();
    await rowOf(page, 'accounts-table', 'Paged 20').waitFor();
    await expect(
      page.getByTestId('accounts-table').locator('tbody tr td:nth-child(2)').allTextContents(),
    ).resolves.toEqual(['Paged 20']);
    await page.close();
  });
}
