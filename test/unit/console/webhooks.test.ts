import { describe, expect, it, vi } from 'vitest';
import { consoleWebhooksOver } from '../../../console/server/webhooks/webhooks';
import { ValidationError } from '../../../functions/domain/shared/errors';
import type { Delivery } from '../../../functions/domain/webhooks/delivery';
import type { WebhookEndpoint } from '../../../functions/domain/webhooks/model';

/** The console's Webhooks page (docs/console.md, §32): an owner's endpoints, failed deliveries. */
const at = '2026-01-01T00:00:00.000Z';
const endpoint = (id: string, ownerId: string): WebhookEndpoint => ({
  id,
  ownerId,
  url: `https://hooks.example.com/${id}`,
  events: ['*'],
  accountIds: null,
  status: 'enabled',
  secrets: [{ sealed: 'sealed-secret', createdAt: at }],
  consecutiveFailures: 3,
  version: 1,
  createdAt: at,
  updatedAt: at,
});
const failed = (endpointId: string): Delivery => ({
  deliveryId: `d-${endpointId}`,
  endpointId,
  ownerId: 'alice',
  accountId: 'a1',
  position: 'p1',
  body: '{"secret":"body"}',
  eventId: 'ev1',
  eventType: 'journal.record',
  status: 'failed',
  attempts: 5,
  lastStatus: 500,
  lastError: 'HTTP 500',
  lastAttemptAt: at,
  nextAttemptAt: null,
  createdAt: at,
  ordered: true,
  version: 2,
});

function pageOver(owners: Record<string, WebhookEndpoint[]>) {
  const reads = {
    listEndpoints: vi.fn(async (owner: string) => owners[owner] ?? []),
    listDeliveries: vi.fn(async (endpointId: string, query: { cursor?: string }) => {
      if (query.cursor === 'bad')
        throw new ValidationError('The cursor is not one this API returned.');
      return { items: [failed(endpointId)], nextCursor: 'next' };
    }),
  };
  const page = consoleWebhooksOver(reads);
  return { reads, list: (query: string) => page.list(new URLSearchParams(query)) };
}

describe('console webhooks', () => {
  it("lists the owner's endpoints (no secret) and each one's failed deliveries", async () => {
    const { reads, list } = pageOver({ alice: [endpoint('w1', 'alice'), endpoint('w2', 'alice')] });
    const answer = await list('owner=alice');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      owner: 'alice',
      endpoints: ['w1', 'w2'].map((id) => ({
        id,
        url: `https://hooks.example.com/${id}`,
        events: ['*'],
        accountIds: null,
        status: 'enabled',
        createdAt: at,
      })),
      failed: ['w1', 'w2'].map((id) => ({
        endpointId: id,
        nextCursor: 'next',
        items: [
          {
            id: `d-${id}`,
            eventId: 'ev1',
            eventType: 'journal.record',
            accountId: 'a1',
            attempts: 5,
            lastStatus: 500,
            lastError: 'HTTP 500',
            lastAttemptAt: at,
          },
        ],
      })),
    });
    expect(JSON.stringify(answer.body)).not.toMatch(/sealed|secret/);
    expect(reads.listEndpoints.mock.calls).toEqual([['alice']]);
    expect(reads.listDeliveries.mock.calls.map((c) => c[1])).toEqual([
      { status: 'failed', limit: 20 },
      { status: 'failed', limit: 20 },
    ]);
  });

  it("pages one endpoint of the owner's, and never another owner's", async () => {
    const { reads, list } = pageOver({ alice: [endpoint('w1', 'alice')], bob: [] });
    const page = await list('owner=alice&endpoint=w1&cursor=c1&limit=5');
    expect(page.status).toBe(200);
    expect(reads.listDeliveries.mock.calls).toEqual([
      ['w1', { status: 'failed', limit: 5, cursor: 'c1' }],
    ]);
    const foreign = await list('owner=bob&endpoint=w1');
    expect(foreign).toEqual({ status: 404, body: { error: 'bob has no endpoint w1' } });
    expect(await list('owner=bob')).toEqual({
      status: 200,
      body: { owner: 'bob', endpoints: [], failed: [] },
    });
    expect(reads.listDeliveries).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['', /give the owner/],
    ['owner=%20%20', /give the owner/],
    [`owner=${'x'.repeat(201)}`, /give the owner/],
    ['owner=alice&owner=bob', /more than once/],
    ['owner=alice&secret=1', /unknown parameter secret/],
    ['owner=alice&cursor=c1', /give endpoint too/],
    ['owner=alice&limit=0', /limit is a whole number/],
    ['owner=alice&limit=101', /limit is a whole number/],
    ['owner=alice&limit=2x', /limit is a whole number/],
    ['owner=alice&endpoint=w1&cursor=bad', /cursor: The cursor is not one/],
  ])('refuses %s with a 400 and a message', async (query, message) => {
    const { list } = pageOver({ alice: [endpoint('w1', 'alice')] });
    const answer = await list(query);
    expect(answer.status).toBe(400);
    expect((answer.body as { error: string }).error).toMatch(message);
  });
});
