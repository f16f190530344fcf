import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { judgeDelivery, startListener } from '../../../cli/commands/webhooks/listen';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const event = {
  id: 'acc-1:0000000000000007',
  type: 'ledger.journal.v1',
  subject: 'acc-1',
  sequence: 7,
};
const body = JSON.stringify(event);

function signed(key: string, payload = body) {
  const timestamp = new Date();
  const signature = new Webhook(key).sign(event.id, timestamp, payload);
  return {
    'webhook-id': event.id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

describe('npm run cli -- webhooks listen (docs/webhooks.md)', () => {
  it('accepts a delivery signed with its secret and prints type, id, account and sequence', () => {
    expect(judgeDelivery(secret, body, signed(secret))).toEqual({
      status: 204,
      line: 'ledger.journal.v1 webhook-id=acc-1:0000000000000007 account=acc-1 sequence=7 verified',
    });
  });

  it('answers 401 to another secret and to a changed body', () => {
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    expect(judgeDelivery(secret, body, signed(other)).status).toBe(401);
    expect(judgeDelivery(secret, body.replace('7', '8'), signed(secret)).status).toBe(401);
  });

  it('listens on 127.0.0.1 and answers over HTTP', async () => {
    const lines: string[] = [];
    const { server, url } = await startListener(0, secret, (line) => lines.push(line));
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const good = await fetch(url, { method: 'POST', body, headers: signed(secret) });
      const bad = await fetch(url, { method: 'POST', body, headers: { 'webhook-id': 'x' } });
      expect([good.status, bad.status]).toEqual([204, 401]);
      expect(lines[0]).toContain('verified');
      expect(lines[1]).toMatch(/^REJECTED webhook-id=x/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
