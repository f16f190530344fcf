import { Aws, Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import {
  DEFAULT_EXPORT_RETENTION_DAYS,
  EXPORT_KEY_PREFIX,
} from '../../../functions/contract/exports';

/**
 * The bucket's name: `<prefix>ledger-exports-<account>-<region>` (at most 63 characters with a
 * stage of 20). A name both stacks derive from the stage, so the stateless stack names the
 * bucket without a cross-stack export, and its grants read as one fixed ARN.
 */
export const exportBucketName = (prefix: string): string =>
  `${prefix}ledger-exports-${Aws.ACCOUNT_ID}-${Aws.REGION}`;

export interface ExportBucketProps {
  /** Prepended to the bucket name (the stage and `-`). @default '' */
  readonly namePrefix?: string;

  /**
   * Days an export file is kept; the lifecycle rule deletes `exports/` objects after them.
   * @default DEFAULT_EXPORT_RETENTION_DAYS (7)
   */
  readonly retentionDays?: number;

  /**
   * What happens to the bucket when it leaves the stack (DESTROY needs it empty).
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
}

/** Why the bucket has no server access log bucket of its own (cdk-nag AwsSolutions-S1). */
const ACCESS_LOGS_ACKNOWLEDGEMENT_REASON =
  'The bucket holds short-lived export files under exports/ that only the export worker writes and only presigned URLs of the HTTP function read; every presigned URL is handed out by an authenticated, logged API request (task id, principal, request id). A second bucket of access logs would hold more data about the exports than the exports themselves; CloudTrail data events can be enabled per stage when an audit needs per-object reads.';

/**
 * Where the export worker writes the files (docs/contract.md §12): no public access, TLS only,
 * S3-managed encryption, objects owned by the bucket, `exports/` expired after the retention,
 * and incomplete multipart uploads (a worker that died mid-export) cleaned up after a day.
 */
export class ExportBucket extends Construct {
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: ExportBucketProps = {}) {
    super(scope, id);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    this.bucket = new s3.Bucket(this, 'Bucket', {
      bucketName: exportBucketName(props.namePrefix ?? ''),
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: false,
      lifecycleRules: [
        {
          id: 'expire-exports',
          prefix: EXPORT_KEY_PREFIX,
          expiration: Duration.days(props.retentionDays ?? DEFAULT_EXPORT_RETENTION_DAYS),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      // No autoDeleteObjects: its custom resource would be one more function with broad S3
      // rights. A destroyed stage's bucket is removed once empty (the lifecycle empties it).
      removalPolicy,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: ACCESS_LOGS_ACKNOWLEDGEMENT_REASON,
    });
  }
}
