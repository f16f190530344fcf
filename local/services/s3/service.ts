import type { S3Client } from '@aws-sdk/client-s3';
import type { Lifecycle } from '../lifecycle';
import { ensureBucket, localS3Client } from './bucket';

/** S3 for export objects (contract §12): a client on the endpoint and the bucket in place. */
export async function startS3Service(
  lifecycle: Lifecycle,
  endpoint: string,
  bucket: string,
): Promise<S3Client> {
  const client = localS3Client(endpoint);
  lifecycle.defer('S3 client', () => client.destroy());
  await ensureBucket(client, bucket);
  return client;
}
