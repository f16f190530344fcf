import { createHash } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createS3ObjectSink, MIN_PART_SIZE } from '../../../functions/aws/s3-object-sink';

const s3 = mockClient(S3Client);
const client = new S3Client({ region: 'eu-west-1' });
const sink = createS3ObjectSink({ client, bucket: 'exports-bucket' });

beforeEach(() => s3.reset());

const bodyBytes = (body: unknown) => Buffer.from(body as Uint8Array);

describe('S3 object sink', () => {
  it('puts a small object in one PutObject with the key, type and exact bytes', async () => {
    s3.on(PutObjectCommand).resolves({ ETag: '"e"' });
    const writer = sink.open('exports/t/e.csv', 'text/csv');
    await writer.write(Buffer.from('a,b\r\n'));
    await writer.write(Buffer.from('1,2\r\n'));
    await writer.complete();

    const [put] = s3.commandCalls(PutObjectCommand);
    expect(put?.args[0].input).toMatchObject({
      Bucket: 'exports-bucket',
      Key: 'exports/t/e.csv',
      ContentType: 'text/csv',
    });
    expect(bodyBytes(put?.args[0].input.Body).toString()).toBe('a,b\r\n1,2\r\n');
    expect(s3.commandCalls(CreateMultipartUploadCommand)).toHaveLength(0);
  });

  it('streams a large object as a multipart upload whose parts join to the bytes written', async () => {
    s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'u-1' });
    s3.on(UploadPartCommand).callsFake((input: { PartNumber?: number }) => ({
      ETag: `"p${input.PartNumber}"`,
    }));
    s3.on(CompleteMultipartUploadCommand).resolves({});
    const writer = sink.open('exports/t/e.jsonl', 'application/jsonl');
    const chunk = Buffer.alloc(256 * 1024, 'x');
    const written = createHash('sha256');
    let total = 0;
    for (let i = 0; total < 2 * MIN_PART_SIZE + 1; i++) {
      const piece = Buffer.concat([Buffer.from(`${i}:`), chunk]);
      written.update(piece);
      total += piece.length;
      await writer.write(piece);
    }
    await writer.complete();

    const parts = s3
      .commandCalls(UploadPartCommand)
      .map((call) => call.args[0].input)
      .sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0));
    expect(parts).toHaveLength(3);
    const joined = createHash('sha256');
    for (const part of parts) joined.update(bodyBytes(part.Body));
    expect(joined.digest('hex')).toBe(written.digest('hex'));
    const [complete] = s3.commandCalls(CompleteMultipartUploadCommand);
    expect(complete?.args[0].input.MultipartUpload?.Parts?.map((p) => p.PartNumber)).toEqual([
      1, 2, 3,
    ]);
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });

  it('fails the writer and aborts the multipart upload when a part cannot be stored', async () => {
    s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'u-2' });
    s3.on(UploadPartCommand).rejects(
      new S3ServiceException({
        name: 'InternalError',
        $fault: 'server',
        $metadata: { httpStatusCode: 500 },
        message: 'We encountered an internal error.',
      }),
    );
    s3.on(AbortMultipartUploadCommand).resolves({});
    const writer = sink.open('exports/t/e.csv', 'text/csv');
    const chunk = Buffer.alloc(1024 * 1024, 'y');
    const writing = (async () => {
      for (let i = 0; i < 3 * 5 + 1; i++) await writer.write(chunk);
      await writer.complete();
    })();
    await expect(writing).rejects.toThrow(/internal error/);
    expect(s3.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
    expect(s3.commandCalls(AbortMultipartUploadCommand)[0]?.args[0].input).toMatchObject({
      Bucket: 'exports-bucket',
      Key: 'exports/t/e.csv',
      UploadId: 'u-2',
    });
  });

  it('abort leaves no object behind and never throws', async () => {
    s3.on(PutObjectCommand).resolves({});
    const writer = sink.open('exports/t/e.csv', 'text/csv');
    await writer.write(Buffer.from('partial'));
    await expect(writer.abort()).resolves.toBeUndefined();
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });
});
