import { createPublicKey, verify as edVerify } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../../cli/command';
import { generateCallbackKeys } from '../../../cli/commands/keygen';
import { runCli } from '../../../cli/run';
import { parse as parseSigningArgs, signerFor } from '../../../cli/signing';
import { DEMO_CALLBACK_SECRET } from '../../../functions/contract/local-stack';
import { parsePublicKey } from '../../../functions/domain/callbacks/keys';
import { verifyCallbackSignature } from '../../../functions/domain/callbacks/signature';
import { verifyStandardWebhook } from '../../../functions/domain/callbacks/standard-webhooks';
import { epochSeconds } from '../../../functions/domain/shared/time';

/**
 * The CLI signs callbacks either way (docs/contract.md §7). Interoperability the other way round
 * from test/unit/domain/callbacks/standard-webhooks.test.ts: the CLI's `callback` command signs, and the
 * reference implementation (the `standardwebhooks` npm package) verifies what went out.
 */
const EXECUTION = '6f1c9a52-3c1e-4f7a-9d3e-0b8f1f0e2a11';
const WHSEC = `whsec_${Buffer.from('cli-interop-secret-0123456789abcdef').toString('base64')}`;

interface Captured {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Runs `npm run cli -- callback …` against a fetch that records the request and answers 200. */
async function sendWithCli(...args: string[]): Promise<{ code: number; sent: Captured[] }> {
  const sent: Captured[] = [];
  const ctx: CliContext = {
    env: {},
    out: () => {},
    err: (line) => {
      throw new Error(line);
    },
    fetch: (async (input: string | URL | Request, init?: RequestInit) => {
      const request = new Request(input, init);
      sent.push({
        url: request.url,
        headers: Object.fromEntries(request.headers.entries()),
        body: await request.text(),
      });
      return Response.json({ outcome: 'applied' });
    }) as typeof fetch,
    signal: new AbortController().signal,
  };
  const code = await runCli(
    ['callback', '--execution', EXECUTION, '--sequence', '1', '--status', 'RUNNING', ...args],
    ctx,
  );
  return { code, sent };
}

const eventId = (body: string) => (JSON.parse(body) as { id: string }).id;

describe('the CLI signer, verified by the standardwebhooks package', () => {
  it('--scheme standard-webhooks with a whsec_ secret: v1 over "<id>.<timestamp>.<body>"', async () => {
    const { code, sent } = await sendWithCli('--scheme', 'standard-webhooks', '--secret', WHSEC);

    expect(code).toBe(0);
    const [request] = sent;
    if (!request) throw new Error('nothing was sent');
    expect(request.url).toBe('http://127.0.0.1:3000/v1/callbacks/export-worker');
    expect(request.headers['webhook-id']).toBe(eventId(request.body));
    expect(request.headers['callback-signature']).toBeUndefined();
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(() => new Webhook(WHSEC).verify(request.body, request.headers)).not.toThrow();
  });

  it('a plain secret is signed as its UTF-8 bytes (the package in raw format agrees)', async () => {
    const { sent } = await sendWithCli('--scheme', 'standard-webhooks');

    const [request] = sent;
    if (!request) throw new Error('nothing was sent');
    expect(() =>
      new Webhook(DEMO_CALLBACK_SECRET, { format: 'raw' }).verify(request.body, request.headers),
    ).not.toThrow();
    // A body changed after signing is refused by the reference too.
    expect(() =>
      new Webhook(DEMO_CALLBACK_SECRET, { format: 'raw' }).verify(
        request.body.replace('RUNNING', 'FAILED'),
        request.headers,
      ),
    ).toThrow();
  });

  it('--signing-key signs v1a (ed25519) alone: it verifies under the whpk_ public key, no secret', async () => {
    const keys = generateCallbackKeys();

    const { sent } = await sendWithCli('--signing-key', keys.signingKey);

    const [request] = sent;
    if (!request) throw new Error('nothing was sent');
    const signature = request.headers['webhook-signature'] ?? '';
    expect(signature).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/);
    // The package implements v1 only; v1a is checked with node:crypto, independently of our code.
    const content = `${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.${request.body}`;
    const publicKey = parsePublicKey(keys.publicKey) ?? createPublicKey('');
    expect(
      edVerify(null, Buffer.from(content), publicKey, Buffer.from(signature.slice(4), 'base64')),
    ).toBe(true);
    expect(
      verifyStandardWebhook({
        headers: {
          id: request.headers['webhook-id'],
          timestamp: request.headers['webhook-timestamp'],
          signature,
        },
        rawBody: Buffer.from(request.body),
        secrets: [],
        publicKeys: [keys.publicKey],
        nowSeconds: epochSeconds(),
      }),
    ).toBe(eventId(request.body));
  });

  it('--signing-key with --secret sends v1 and v1a side by side', async () => {
    const keys = generateCallbackKeys();

    const { sent } = await sendWithCli('--signing-key', keys.signingKey, '--secret', WHSEC);

    const headers = sent[0]?.headers ?? {};
    expect(headers['webhook-signature']?.split(' ').map((entry) => entry.split(',')[0])).toEqual([
      'v1',
      'v1a',
    ]);
    expect(() => new Webhook(WHSEC).verify(sent[0]?.body ?? '', headers)).not.toThrow();
  });

  it('signs Callback-Signature by default, with the local demo secret', async () => {
    const { sent } = await sendWithCli();

    const [request] = sent;
    if (!request) throw new Error('nothing was sent');
    expect(request.headers['webhook-signature']).toBeUndefined();
    expect(() =>
      verifyCallbackSignature({
        header: request.headers['callback-signature'],
        rawBody: Buffer.from(request.body),
        secrets: [DEMO_CALLBACK_SECRET],
        nowSeconds: epochSeconds(),
      }),
    ).not.toThrow();
  });
});

describe('signing options', () => {
  const parse = (values: Record<string, string>) => parseSigningArgs(values, 'callback');

  it('refuses an unknown scheme, a whsec_ that is not base64 and a key that is not whsk_', () => {
    expect(() => parse({ scheme: 'hmac' })).toThrow(/--scheme must be one of/);
    expect(() => parse({ secret: 'whsec_not base64!' })).toThrow(/--secret whsec_/);
    expect(() => parse({ 'signing-key': 'whpk_AAAA' })).toThrow(/--signing-key must be whsk_/);
  });

  it('refuses a signing key with Callback-Signature, which has no asymmetric form', () => {
    const { signingKey } = generateCallbackKeys();
    expect(() => parse({ scheme: 'callback-signature', 'signing-key': signingKey })).toThrow(
      /Standard Webhooks/,
    );
  });

  it('a signing key implies Standard Webhooks and needs no secret; otherwise the secrets apply', () => {
    const { signingKey } = generateCallbackKeys();

    const v1a = signerFor('partner', parse({ 'signing-key': signingKey }), {});
    const plain = signerFor('export-worker', parse({}), {});

    expect(v1a).toMatchObject({ scheme: 'standard-webhooks', secrets: [] });
    expect(v1a.signingKeys).toHaveLength(1);
    expect(plain).toEqual({
      scheme: 'callback-signature',
      secrets: [DEMO_CALLBACK_SECRET],
      signingKeys: [],
    });
    expect(() => signerFor('partner', parse({}), {})).toThrow(/no callback secret/);
  });
});
