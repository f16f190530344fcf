import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface DeadLetterQueueAlarmProps {
  /** The dead-letter queue to watch. */
  readonly queue: sqs.IQueue;

  /**
   * What the alarm means and what an operator should do; shown in the console and in
   * notifications (at most 1024 characters).
   */
  readonly description: string;

  /**
   * Period of the `Maximum` of `ApproximateNumberOfMessagesVisible`. SQS publishes it every
   * minute; the alarm fires after one period with at least one message.
   * @default Duration.minutes(1)
   */
  readonly period?: Duration;
}

/**
 * Alarms as soon as a dead-letter queue holds a message. Missing data is not breaching: SQS
 * stops publishing for an idle, empty queue. Add notification actions through {@link alarm}.
 */
export class DeadLetterQueueAlarm extends Construct {
  readonly alarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: DeadLetterQueueAlarmProps) {
    super(scope, id);
    this.alarm = new cloudwatch.Alarm(this, 'Alarm', {
      alarmDescription: props.description,
      metric: props.queue.metricApproximateNumberOfMessagesVisible({
        period: props.period ?? Duration.minutes(1),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
}
