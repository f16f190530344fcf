import { ArnFormat, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { alarmRunbook } from '../../alarm-catalog';

export interface OperationsAlarmsProps {
  /**
   * Prefix of every alarm name and the topic name, e.g. `idempotent-ledger-prod`: alarms are
   * `<prefix>-<slug>`, the topic `<prefix>-alarms`.
   */
  readonly namePrefix: string;

  /**
   * Subscribed to the topic by e-mail. SNS sends a confirmation message first; nothing is
   * delivered until someone confirms it.
   * @default - no subscription (add one by hand or through `topic`)
   */
  readonly email?: string;
}

/** What every alarm of the service is built from; see {@link OperationsAlarms.addAlarm}. */
export interface OperationsAlarmSpec {
  /** Stable, stage-independent name: the alarm name suffix and the `docs/alarms.md` anchor. */
  readonly slug: string;
  /** What the alarm means and the first thing to do; the runbook link is appended. */
  readonly description: string;
  readonly metric: cloudwatch.IMetric;
  readonly threshold: number;
  /** @default GREATER_THAN_OR_EQUAL_TO_THRESHOLD */
  readonly comparisonOperator?: cloudwatch.ComparisonOperator;
  /** @default 1 */
  readonly evaluationPeriods?: number;
  /** @default evaluationPeriods */
  readonly datapointsToAlarm?: number;
}

/** Longest alarm description CloudWatch accepts. */
const MAX_ALARM_DESCRIPTION_LENGTH = 1024;

/**
 * The operators' alarm topic and the house style of every alarm that notifies it.
 *
 * **Topic encryption.** The topic is encrypted with a customer-managed KMS key (rotated yearly),
 * not with the AWS-managed `alias/aws/sns`: CloudWatch publishes alarm notifications as the
 * `cloudwatch.amazonaws.com` service, which needs `kms:GenerateDataKey*` and `kms:Decrypt` on the
 * topic's key, and the policy of an AWS-managed key cannot grant that. With `alias/aws/sns` every
 * notification would fail silently (the alarm history shows the failed action). The key policy
 * lets CloudWatch use the key only for this topic (`kms:EncryptionContext:aws:sns:topicArn`).
 *
 * **Topic policy.** TLS only (`enforceSSL`), and `sns:Publish` for CloudWatch alarms of this
 * account and region only. (`enforceSSL` replaces SNS's default policy, whose statement for the
 * account's own principals is what would otherwise let CloudWatch publish.)
 *
 * **Alarms.** Named `<prefix>-<slug>`, missing data is not breaching (an idle function or an empty
 * queue publishes nothing), and both ALARM and OK go to the topic, so a page resolves itself.
 */
export class OperationsAlarms extends Construct {
  readonly topic: sns.Topic;
  readonly key: kms.Key;
  /** Every alarm wired to the topic, in creation order. */
  readonly alarms: cloudwatch.Alarm[] = [];
  private readonly namePrefix: string;

  constructor(scope: Construct, id: string, props: OperationsAlarmsProps) {
    super(scope, id);
    this.namePrefix = props.namePrefix;
    const stack = Stack.of(this);
    const topicName = `${props.namePrefix}-alarms`;
    // Built from the fixed name rather than referenced: the key policy would otherwise depend on
    // the topic, which depends on the key.
    const topicArn = stack.formatArn({ service: 'sns', resource: topicName });

    this.key = new kms.Key(this, 'TopicKey', {
      description: `Encrypts the ${topicName} SNS topic (alarm notifications)`,
      enableKeyRotation: true,
      // The key only protects alarm messages in flight: nothing is lost when it goes, and a kept
      // key would cost money for nothing. Deletion waits the shortest window KMS allows.
      pendingWindow: Duration.days(7),
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudWatchAlarmsPublishToTopic',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: { StringEquals: { 'kms:EncryptionContext:aws:sns:topicArn': topicArn } },
      }),
    );

    this.topic = new sns.Topic(this, 'Topic', {
      topicName,
      displayName: `${props.namePrefix} alarms`,
      masterKey: this.key,
      enforceSSL: true,
    });
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudWatchAlarmsOfThisAccount',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: '*',
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
        },
      }),
    );

    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
  }

  /** Sends the alarm's ALARM and OK transitions to the topic. */
  notify(alarm: cloudwatch.Alarm): cloudwatch.Alarm {
    const action = new SnsAction(this.topic);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    this.alarms.push(alarm);
    return alarm;
  }

  /** Full name of the alarm with `slug`. */
  alarmName(slug: string): string {
    return `${this.namePrefix}-${slug}`;
  }

  /**
   * Creates an alarm in `scope` in the house style (named, described with its runbook link,
   * missing data not breaching) and wires it to the topic.
   */
  addAlarm(scope: Construct, id: string, spec: OperationsAlarmSpec): cloudwatch.Alarm {
    const evaluationPeriods = spec.evaluationPeriods ?? 1;
    return this.notify(
      new cloudwatch.Alarm(scope, id, {
        alarmName: this.alarmName(spec.slug),
        alarmDescription: describeAlarm(spec.slug, spec.description),
        metric: spec.metric,
        threshold: spec.threshold,
        comparisonOperator:
          spec.comparisonOperator ??
          cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods,
        datapointsToAlarm: spec.datapointsToAlarm ?? evaluationPeriods,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
  }
}

/**
 * `description` followed by the runbook link; fails the synth when the result is longer than
 * CloudWatch accepts, so a long description is caught here and not at deploy time.
 */
export function describeAlarm(slug: string, description: string): string {
  const text = `${description} Runbook: ${alarmRunbook(slug)}`;
  if (text.length > MAX_ALARM_DESCRIPTION_LENGTH) {
    throw new Error(
      `description of alarm ${slug} is ${text.length} characters; CloudWatch accepts ${MAX_ALARM_DESCRIPTION_LENGTH}`,
    );
  }
  return text;
}
