import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { expect, it } from 'vitest';
import { LOCAL_AWS } from '../../../functions/contract/local-stack';
import { deliveryIdAt } from '../../../functions/domain/webhooks/worker';
import { createWebhookDeliveryStore } from '../../../functions/dynamodb/webhooks/delivery-store';
import { clientFor, type LocalStack } from '../../e2e/support/stack';
import { type ConsoleBrowser, rowOf } from './console-browser';
import { CONSOLE_TABLE, type ConsoleSeed } from './console-seed';

/**
 * The console's Webhooks page (docs/console.md, docs/contract.md §32): an endpoint made through
 * the API by an owner with no account (so the stack never delivers to it) and a failed delivery
 * written through the deliveries store, seen on the page as that owner only. Called inside the
 * console test's describe.
 */
export function consoleWebhooksTests(
  context: () => { browser: ConsoleBrowser; seed: ConsoleSeed; stack: LocalStack },
): void {
  it('webhooks: an owner’s endpoint and its failed delivery, never another owner’s', async () => {
    const { browser, seed, stack } = context();
    const owner = 'hooks-owner';
    const { data: endpoint } = await clientFor(stack.base, owner).POST('/v1/webhook-endpoints', {
      params: { header: { 'Idempotency-Key': 'console-webhook' } },
      body: { url: 'https://hooks.example.com/console', events: ['*'] },
    });
    if (!endpoint) throw new Error('the webhook endpoint was not created');
    const dynamo = new DynamoDBClient({
      ...LOCAL_AWS,
      endpoint: `http://127.0.0.1:${stack.dynamoPort}`,
    });
    const at = new Date().toISOString();
    await createWebhookDeliveryStore({
      client: dynamo,
      tableName: CONSOLE_TABLE,
      source: 'urn:idempotent-ledger:console-test',
    }).putDelivery({
      deliveryId: deliveryIdAt(new Date(), randomUUID()),
      endpointId: endpoint.id,
      ownerId: owner,
      accountId: seed.accountId,
      position: 'console-test',
      body: '{}',
      eventId: 'console-failed-event',
      eventType: 'ledger.journal.v1',
      status: 'failed',
      attempts: 7,
      lastStatus: 503,
      lastError: 'HTTP 503 from the receiver',
      lastAttemptAt: at,
      nextAttemptAt: null,
      createdAt: at,
      ordered: true,
      version: 1,
    });
    dynamo.destroy();

    const page = await browser.open('webhooks');
    await page.getByText('Give an owner (principal)').waitFor();
    await page.getByLabel('Owner (principal)').fill(owner);
    await page.getByRole('button', { name: 'List webhooks' }).click();
    await expect.poll(() => page.url()).toContain(`#/webhooks?owner=${owner}`);
    const listed = rowOf(page, 'webhook-endpoints', endpoint.id);
    await listed.waitFor();
    await expect(listed.locator('td').allTextContents()).resolves.toEqual(
      expect.arrayContaining(['https://hooks.example.com/console', '*', 'enabled']),
    );
    await expect(page.content()).resolves.not.toContain('whsec_');
    const failed = rowOf(page, `webhook-failed-${endpoint.id}`, 'console-failed-event');
    const cells = await failed.locator('td').allTextContents();
    expect(cells.slice(0, 6)).toEqual([
      'console-failed-event',
      'ledger.journal.v1',
      seed.accountId,
      '7',
      '503',
      'HTTP 503 from the receiver',
    ]);

    await page.getByLabel('Owner (principal)').fill('bob');
    await page.getByRole('button', { name: 'List webhooks' }).click();
    await page.getByText('bob has no webhook endpoint.').waitFor();
    await expect(page.getByText('console-failed-event').count()).resolves.toBe(0);
    await page.close();
  });
}
