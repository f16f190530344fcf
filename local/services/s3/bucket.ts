import {
  CreateBucketCommand,
  HeadBucketCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { LOCAL_AWS } from '../../../functions/contract/local-stack';

/**
 * S3 on the local stack: fauxqs serves it on the SQS endpoint (docs/contract.md §12), or
 * `S3_ENDPOINT` names another. Path-style URLs (`http://127.0.0.1:4566/<bucket>/<key>`) resolve
 * without wildcard DNS, so a presigned URL downloads with plain curl.
 */
export function localS3Client(endpoint: string): S3Client {
  return new S3Client({ ...LOCAL_AWS, endpoint, forcePathStyle: true, maxAttempts: 3 });
}

/** Creates the bucket unless it exists. */
export async function ensureBucket(client: S3Client, bucket: string): Promise<void> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
    return;
  } catch (error) {
    const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : 0;
    if (status !== 404) throw error;
  }
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
}
