import { CfnOutput } from 'aws-cdk-lib';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';

interface Logged {
  readonly logGroup: ILogGroup;
}

/**
 * What the outputs name, as the stateless stack has it (lib/stateless-stack.ts passes itself):
 * a shape, so this file does not import the stack that imports it.
 */
export interface StatelessOutputSource extends Construct {
  readonly httpApi: { readonly url: string; readonly accessLogGroup: ILogGroup };
  readonly httpFunction: Logged;
  readonly eventsConsumer: { readonly function: Logged };
  readonly outboxDispatcher: { readonly function: Logged };
  readonly exportWorker: { readonly function: Logged };
  readonly sweeper: { readonly function: Logged };
  readonly reconciler: { readonly function: Logged };
  readonly journalProjector: { readonly function: Logged };
  readonly creditFolder: { readonly function: Logged };
  readonly operations: { readonly topic: ITopic };
  readonly dashboard: {
    readonly dashboard: { readonly dashboardName: string };
    readonly url: string;
  };
}

/**
 * The stateless stack's outputs: the API URL, every log group the runbook (docs/alarms.md)
 * queries, the alarm topic and the dashboard.
 */
export function addStatelessOutputs(stack: StatelessOutputSource): void {
  new CfnOutput(stack, 'ApiUrl', {
    description: 'Invoke URL of the HTTP API ($default stage)',
    value: stack.httpApi.url,
  });
  // Log group names are generated; the runbook (docs/alarms.md) queries them by these outputs.
  for (const [outputId, description, logGroup] of [
    ['HttpFunctionLogGroupName', 'HTTP function', stack.httpFunction.logGroup],
    [
      'EventsConsumerLogGroupName',
      'ledger-events consumer',
      stack.eventsConsumer.function.logGroup,
    ],
    ['OutboxDispatcherLogGroupName', 'outbox dispatcher', stack.outboxDispatcher.function.logGroup],
    ['ExportWorkerLogGroupName', 'export worker', stack.exportWorker.function.logGroup],
    ['SweeperLogGroupName', 'sweeper', stack.sweeper.function.logGroup],
    ['ReconcilerLogGroupName', 'reconciler', stack.reconciler.function.logGroup],
    ['JournalProjectorLogGroupName', 'journal projector', stack.journalProjector.function.logGroup],
    ['CreditFolderLogGroupName', 'credit folder', stack.creditFolder.function.logGroup],
    ['ApiAccessLogGroupName', 'HTTP API access logs', stack.httpApi.accessLogGroup],
  ] as const) {
    new CfnOutput(stack, outputId, {
      description: `Log group of the ${description}`,
      value: logGroup.logGroupName,
    });
  }
  new CfnOutput(stack, 'AlarmTopicArn', {
    description: 'ARN of the SNS topic every alarm notifies (subscribe pagers or chat here)',
    value: stack.operations.topic.topicArn,
  });
  new CfnOutput(stack, 'DashboardName', {
    description: 'Name of the CloudWatch operations dashboard',
    value: stack.dashboard.dashboard.dashboardName,
  });
  new CfnOutput(stack, 'DashboardUrl', {
    description: 'Console URL of the CloudWatch operations dashboard',
    value: stack.dashboard.url,
  });
}
