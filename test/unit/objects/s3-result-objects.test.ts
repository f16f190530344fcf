import { HeadObjectCommand, NotFound, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createS3ResultObjects } from '../../../functions/objects/s3-result-objects';

const s3 = mockClient(S3Client);
const client = new S3Client({
  region: 'eu-west-1',
  credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
});
const objects = createS3ResultObjects({ client, bucket: 'exports-bucket' });

beforeEach(() => s3.reset());

describe('S3 result objects (docs/contract.md §12)', () => {
  it('tells a kept object (HEAD 200) from a deleted one (NotFound)', async () => {
    s3.on(HeadObjectCommand, { Key: 'exports/t/kept.csv' }).resolves({ ContentLength: 10 });
    s3.on(HeadObjectCommand, { Key: 'exports/t/gone.csv' }).rejects(
      new NotFound({ message: 'Not Found', $metadata: { httpStatusCode: 404 } }),
    );
    expect(await objects.exists('exports/t/kept.csv')).toBe(true);
    expect(await objects.exists('exports/t/gone.csv')).toBe(false);
    expect(s3.commandCalls(HeadObjectCommand)[0]?.args[0].input).toEqual({
      Bucket: 'exports-bucket',
      Key: 'exports/t/kept.csv',
    });
  });

  it('turns throttling into 503 unavailable and anything else (e.g. 403) into internal', async () => {
    s3.on(HeadObjectCommand).rejects(
      new S3ServiceException({
        name: 'SlowDown',
        $fault: 'server',
        $metadata: { httpStatusCode: 503 },
      }),
    );
    await expect(objects.exists('exports/t/x.csv')).rejects.toMatchObject({ code: 'unavailable' });
    s3.reset();
    s3.on(HeadObjectCommand).rejects(
      new S3ServiceException({
        name: 'AccessDenied',
        $fault: 'client',
        $metadata: { httpStatusCode: 403 },
      }),
    );
    await expect(objects.exists('exports/t/x.csv')).rejects.toMatchObject({ code: 'internal' });
  });

  it('presigns a GET of exactly that key, valid the given seconds, without calling S3', async () => {
    const url = new URL(await objects.presignGet('exports/t/e.jsonl', 900));
    expect(url.hostname).toBe('exports-bucket.s3.eu-west-1.amazonaws.com');
    expect(url.pathname).toBe('/exports/t/e.jsonl');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(s3.calls()).toHaveLength(0);
  });
});
