import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectRolePolicy,
  importOf,
  logicalIdOf,
  propertiesOf,
  propertiesOfId,
  SYNTH_HOOK_TIMEOUT_MS,
  type SynthesizedLedger,
  synthLedger,
} from '../synth';

const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
const leading = (keys: string[]) => ({
  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': keys },
});

/** The reconciler's infrastructure (docs/contract.md §19, docs/alarms.md). */
describe('StatelessStack: reconciler', () => {
  let ledger: SynthesizedLedger;
  let fnId: string;

  beforeAll(() => {
    ledger = synthLedger();
    fnId = logicalIdOf(ledger.stacks.stateless.reconciler.function);
  }, SYNTH_HOOK_TIMEOUT_MS);

  it('runs hourly from an EventBridge rule, without retries of a missed run', () => {
    const rules = Object.values(propertiesOf(ledger.stateless, 'AWS::Events::Rule')).filter((r) =>
      JSON.stringify(r).includes(`"${fnId}"`),
    );
    expect(rules).toEqual([
      expect.objectContaining({
        ScheduleExpression: 'rate(1 hour)',
        State: 'ENABLED',
        Targets: [
          expect.objectContaining({
            Arn: arnOf(fnId),
            RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 3600 },
          }),
        ],
      }),
    ]);
  });

  it('is a house-style function with 15 minutes and the shared environment', () => {
    const fn = propertiesOfId(ledger.stateless, 'AWS::Lambda::Function', fnId);
    expect(fn).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Timeout: 900 });
  });

  it('reads what it checks, writes only its own items, deletes only its marks', () => {
    const tableId = logicalIdOf(ledger.stacks.stateful.table);
    const table = importOf(ledger, arnOf(tableId));
    expectRolePolicy(ledger, ledger.stacks.stateless.reconciler.function, [
      {
        Sid: 'ReconcileReads',
        Action: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
        Resource: table,
        Condition: leading([
          'ACCOUNT#*',
          'JOURNAL#*',
          'ENTRY_ID#*',
          'TRANSFER#*',
          'LEDGER_TRANSACTION#*',
        ]),
      },
      {
        Sid: 'ReconcileOwnItems',
        Action: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'],
        Resource: table,
        Condition: leading(['RECONCILE_MARK#*', 'RECONCILE#*', 'RECONCILE_FINDINGS']),
      },
      {
        Sid: 'ReconcileClearMarks',
        Action: 'dynamodb:DeleteItem',
        Resource: table,
        Condition: leading(['RECONCILE_MARK#*']),
      },
    ]);
  });

  it('alarms on any finding in an hour and on a failed run', () => {
    const alarms = Object.values(propertiesOf(ledger.stateless, 'AWS::CloudWatch::Alarm'));
    const mismatch = alarms.find((a) => String(a.AlarmName).endsWith('reconciliation-mismatch'));
    expect(mismatch).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    // The metric (inside the alarm's metric math, with the house style's missing-data fill).
    const text = JSON.stringify(mismatch);
    for (const part of [
      'ReconciliationMismatches',
      'IdempotentLedger',
      'ledger-reconciler',
      '3600',
    ]) {
      expect(text).toContain(part);
    }
    const errors = alarms.find((a) => String(a.AlarmName).endsWith('reconciler-errors'));
    expect(errors).toMatchObject({ MetricName: 'Errors', Namespace: 'AWS/Lambda', Period: 3600 });
  });
});
