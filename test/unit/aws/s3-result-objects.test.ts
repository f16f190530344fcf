import { describe, expect, it, vi } from 'vitest';
import { createS3ResultObjects } from '../../../functions/aws/s3-result-objects';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' };

function objectsAnswering(status: number | Error) {
  const fetch = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => {
    if (status instanceof Error) throw status;
    return new Response(null, { status });
  });
  const objects = createS3ResultObjects({
    bucket: 'exports-bucket',
    region: 'eu-west-1',
    credentials,
    fetch: fetch as unknown as typeof globalThis.fetch,
  });
  return { objects, fetch };
}

describe('S3 result objects (docs/contract.md §12)', () => {
  it('sends a SigV4-signed HEAD of exactly the key; 200 is kept, 404 is gone', async () => {
    const kept = objectsAnswering(200);
    expect(await kept.objects.exists('exports/t/kept.csv')).toBe(true);
    const [url, init] = kept.fetch.mock.calls[0] ?? [];
    expect(String(url)).toBe(
      'https://exports-bucket.s3.eu-west-1.amazonaws.com/exports/t/kept.csv',
    );
    expect(init?.method).toBe('HEAD');
    const headers = init?.headers as Record<string, string>;
    expect(headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    expect(headers['x-amz-content-sha256']).toBe('UNSIGNED-PAYLOAD');

    expect(await objectsAnswering(404).objects.exists('exports/t/gone.csv')).toBe(false);
  });

  it('turns throttling and unreachable S3 into 503 unavailable, anything else (403) into internal', async () => {
    await expect(objectsAnswering(503).objects.exists('k')).rejects.toMatchObject({
      code: 'unavailable',
    });
    await expect(
      objectsAnswering(new TypeError('fetch failed')).objects.exists('k'),
    ).rejects.toMatchObject({
      code: 'unavailable',
    });
    await expect(objectsAnswering(403).objects.exists('k')).rejects.toMatchObject({
      code: 'internal',
    });
  });

  it('presigns a GET of exactly that key, valid the given seconds, without calling S3', async () => {
    const { objects, fetch } = objectsAnswering(200);
    const url = new URL(await objects.presignGet('exports/t/e.jsonl', 900));
    expect(url.hostname).toBe('exports-bucket.s3.eu-west-1.amazonaws.com');
    expect(url.pathname).toBe('/exports/t/e.jsonl');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('presigns path-style on a local endpoint, so plain curl downloads from the emulator', async () => {
    const objects = createS3ResultObjects({
      bucket: 'ledger-exports',
      region: 'us-east-1',
      credentials,
      endpoint: 'http://127.0.0.1:4566/',
    });
    const url = new URL(await objects.presignGet('exports/t/e.csv', 900));
    expect(`${url.origin}${url.pathname}`).toBe(
      'http://127.0.0.1:4566/ledger-exports/exports/t/e.csv',
    );
  });
});
