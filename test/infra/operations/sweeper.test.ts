import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { DUE_INDEX } from '../../../functions/dynamodb/table/due-index';
import {
  expectRolePolicy,
  importOf,
  logicalIdOf,
  propertiesOf,
  SYNTH_HOOK_TIMEOUT_MS,
  type SynthesizedLedger,
  synthLedger,
} from '../synth';

/** The sweeper of docs/contract.md §11: a scheduled Lambda with the least it needs. */
describe('StatelessStack: sweeper', () => {
  let ledger: SynthesizedLedger;
  let template: Template;
  let functionId: string;

  beforeAll(() => {
    ledger = synthLedger();
    template = ledger.stateless;
    functionId = logicalIdOf(ledger.stacks.stateless.sweeper.function);
  }, SYNTH_HOOK_TIMEOUT_MS);

  it('runs every minute from an EventBridge rule, without retries of a missed run', () => {
    const rules = Object.values(propertiesOf(template, 'AWS::Events::Rule')).filter((rule) =>
      JSON.stringify(rule).includes(`"${functionId}"`),
    );
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Targets: [
        {
          Arn: { 'Fn::GetAtt': [functionId, 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 },
        },
      ],
    });
  });

  it('does not let Lambda retry a failed run: the next scheduled one does the work', () => {
    const configs = Object.values(propertiesOf(template, 'AWS::Lambda::EventInvokeConfig')).filter(
      (config) => JSON.stringify(config).includes(`"${functionId}"`),
    );
    expect(configs).toEqual([
      expect.objectContaining({
        FunctionName: { Ref: functionId },
        MaximumRetryAttempts: 0,
        MaximumEventAgeInSeconds: 60,
      }),
    ]);
  });

  it('is a house-style function: 60 s, nothing reserved, its own log group', () => {
    const fn = propertiesOf(template, 'AWS::Lambda::Function')[functionId];
    expect(fn).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Timeout: 60,
      LoggingConfig: { LogGroup: expect.anything() },
    });
    // Two runs at once are safe (each hold is released by one conditional transaction), so no
    // reservation takes concurrency from the account's pool.
    expect(fn?.ReservedConcurrentExecutions).toBeUndefined();
    expect(fn?.Environment).toMatchObject({ Variables: { TABLE_NAME: expect.anything() } });
  });

  it('may only query the due index, settle items, re-queue stranded accounts, publish gaps', () => {
    const gapTopicArn = importOf(ledger, {
      Ref: logicalIdOf(ledger.stacks.stateful.gapTopic.topic),
    });
    const gapKeyArn = importOf(ledger, {
      'Fn::GetAtt': [logicalIdOf(ledger.stacks.stateful.gapTopic.key), 'Arn'],
    });
    const tableArn = importOf(ledger, {
      'Fn::GetAtt': [logicalIdOf(ledger.stacks.stateful.table), 'Arn'],
    });
    const intakeArn = importOf(ledger, {
      'Fn::GetAtt': [logicalIdOf(ledger.stacks.stateful.creditIntakeQueues.queue), 'Arn'],
    });
    expectRolePolicy(ledger, ledger.stacks.stateless.sweeper.function, [
      {
        Sid: 'DueIndexRead',
        Action: 'dynamodb:Query',
        Resource: { 'Fn::Join': ['', [tableArn, `/index/${DUE_INDEX.name}`]] },
      },
      {
        Sid: 'SettleDueItems',
        Action: [
          'dynamodb:GetItem',
          'dynamodb:UpdateItem',
          'dynamodb:PutItem',
          'dynamodb:ConditionCheckItem',
        ],
        Resource: tableArn,
        Condition: {
          'ForAllValues:StringLike': {
            'dynamodb:LeadingKeys': ['HOLD#*', 'ACCOUNT#*', 'TASK#*', 'GAPREQ#*'],
          },
        },
      },
      // Stranded deferred accounts (docs/contract.md §24): markers, oldest pending, re-queue.
      {
        Sid: 'IntakeDueMarkers',
        Action: ['dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
        Resource: tableArn,
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['INTAKE_DUE#*'] } },
      },
      {
        Sid: 'IntakeOldestPending',
        Action: 'dynamodb:Query',
        Resource: tableArn,
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['INTAKE#*#*'] } },
      },
      { Sid: 'CreditIntakeRequeue', Action: 'sqs:SendMessage', Resource: intakeArn },
      { Sid: 'GapRequestPublish', Action: 'sns:Publish', Resource: gapTopicArn },
      {
        Sid: 'GapTopicKey',
        Action: ['kms:GenerateDataKey', 'kms:Decrypt'],
        Resource: gapKeyArn,
      },
    ]);
    const fn = propertiesOf(template, 'AWS::Lambda::Function')[functionId];
    expect(fn?.Environment).toMatchObject({
      Variables: {
        GAP_TOPIC_ARN: gapTopicArn,
        GAP_REFETCH_AFTER_SECONDS: '300',
        STAGE: 'dev',
        CREDIT_INTAKE_QUEUE_URL: importOf(ledger, {
          Ref: logicalIdOf(ledger.stacks.stateful.creditIntakeQueues.queue),
        }),
      },
    });
  });
});
