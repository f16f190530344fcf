import { GetObjectCommand, HeadObjectCommand, NotFound, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ResultObjectPort } from '../core/export-result';
import { storageError } from '../store/sdk-errors';

export interface S3ResultObjectsOptions {
  readonly client: S3Client;
  readonly bucket: string;
}

/**
 * The HTTP API's view of export objects (docs/contract.md §12): HEAD to tell a kept object from
 * one the lifecycle rule deleted, and a presigned GET (signed locally, no request to S3). Both
 * need only `s3:GetObject` on the export prefix.
 */
export function createS3ResultObjects(options: S3ResultObjectsOptions): ResultObjectPort {
  const { client, bucket } = options;
  return {
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (error) {
        if (error instanceof NotFound || httpStatus(error) === 404) return false;
        throw storageError(error);
      }
    },
    presignGet(key, expiresIn) {
      return getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: key }), {
        expiresIn,
      });
    },
  };
}

function httpStatus(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}
