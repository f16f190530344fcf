import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { TTL_ATTRIBUTE } from '../../functions/store/keys';
import { onlyLogicalId, SYNTH_HOOK_TIMEOUT_MS, synthLedger } from './synth';

describe('StatefulStack', () => {
  let template: Template;
  let unprotected: Template;

  beforeAll(() => {
    template = synthLedger().stateful;
    unprotected = synthLedger({ deletionProtection: 'false' }).stateful;
  }, SYNTH_HOOK_TIMEOUT_MS);

  it('holds exactly one DynamoDB table and nothing stateless', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.resourceCountIs('AWS::Lambda::Function', 0);
    template.resourceCountIs('AWS::ApiGatewayV2::Api', 0);
  });

  it('keys the table on pk (HASH, S) and sk (RANGE, S), on-demand', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      GlobalSecondaryIndexes: Match.absent(),
    });
  });

  it('enables TTL on expiresAt (the store key constant)', () => {
    expect(TTL_ATTRIBUTE).toBe('expiresAt');
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
  });

  it('enables point-in-time recovery and AWS-managed (KMS) encryption', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true, KMSMasterKeyId: Match.absent() },
    });
  });

  it('streams NEW_IMAGE for the outbox dispatcher', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
  });

  it('retains the table on stack delete and on replacement', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });

  it('turns deletion protection on by default and off with deletionProtection=false', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: true });
    unprotected.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: false });
  });

  it('outputs the table name', () => {
    const tableId = onlyLogicalId(template, 'AWS::DynamoDB::Table');
    template.hasOutput('TableName', { Value: { Ref: tableId } });
  });
});
