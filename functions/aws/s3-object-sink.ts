import { PassThrough } from 'node:stream';
import { DeleteObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { ObjectSink, ObjectWriter } from '../domain/exports/port';

export interface S3ObjectSinkOptions {
  readonly client: S3Client;
  readonly bucket: string;
  /** Bytes per multipart part (S3's minimum is 5 MiB). @default 5 MiB */
  readonly partSize?: number;
  /** Parts uploading at once; memory ≈ partSize × (queueSize + 1). @default 2 */
  readonly queueSize?: number;
}

export const MIN_PART_SIZE = 5 * 1024 * 1024;

/**
 * Streams an object to S3 with a multipart upload (`@aws-sdk/lib-storage`): the writer waits
 * while the parts in flight are full, so memory stays bounded however long the export is. A
 * small object goes up as one PutObject.
 */
export function createS3ObjectSink(options: S3ObjectSinkOptions): ObjectSink {
  return {
    async delete(key) {
      await options.client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: key }));
    },
    open(key, contentType): ObjectWriter {
      const body = new PassThrough({ highWaterMark: 256 * 1024 });
      const upload = new Upload({
        client: options.client,
        params: { Bucket: options.bucket, Key: key, Body: body, ContentType: contentType },
        partSize: options.partSize ?? MIN_PART_SIZE,
        queueSize: options.queueSize ?? 2,
        leavePartsOnError: false,
      });
      const done = upload.done();
      // Observed at once so a failure before the next write is never an unhandled rejection.
      let failure: { error: unknown } | undefined;
      done.catch((error: unknown) => {
        failure = { error };
      });
      const failed = () => failure !== undefined;

      return {
        async write(chunk) {
          if (failure) throw failure.error;
          if (body.write(chunk)) return;
          await new Promise<void>((resolve, reject) => {
            const onDrain = () => resolve();
            body.once('drain', onDrain);
            done.then(
              () => body.off('drain', onDrain),
              (error: unknown) => {
                body.off('drain', onDrain);
                reject(error);
              },
            );
          });
        },
        async complete() {
          if (failed()) throw failure?.error;
          body.end();
          await done;
        },
        async abort() {
          body.destroy();
          try {
            await upload.abort();
            await done;
          } catch {
            // Aborting is the point: the upload's rejection is expected and already handled.
          }
        },
      };
    },
  };
}
