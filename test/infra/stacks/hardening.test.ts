/**
 * Production hardening across both stacks: least privilege per role (exact actions on named
 * resources, `*` only for dynamodb:ListStreams), encryption at rest, point-in-time recovery, log
 * retention on every log group, API throttling, reserved concurrency, and the retention windows
 * reaching both the TTL logic and the published OpenAPI document.
 */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../functions/api/openapi';
import { loadConfig } from '../../../functions/handlers/shared/config';
import {
  allStatementsOf,
  asList,
  exportedValue,
  logicalIdOf,
  onlyLogicalId,
  propertiesOf,
  propertiesOfId,
  roleIdOf,
  SYNTH_HOOK_TIMEOUT_MS,
  type SynthesizedLedger,
  synthLedger,
} from '../synth';

const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });

const LOG_ACTIONS = ['logs:CreateLogStream', 'logs:PutLogEvents'];

describe('least privilege (default config)', () => {
  let ledger: SynthesizedLedger;
  let ids: Record<string, string>;

  beforeAll(() => {
    ledger = synthLedger();
    const { stateless } = ledger.stacks;
    ids = {
      httpLogs: logicalIdOf(stateless.httpFunction.logGroup),
      eventsLogs: logicalIdOf(stateless.eventsConsumer.function.logGroup),
      dispatcherLogs: logicalIdOf(stateless.outboxDispatcher.function.logGroup),
    };
  }, SYNTH_HOOK_TIMEOUT_MS);

  it('has exactly ten roles (one per function), none with a managed policy', () => {
    ledger.stateless.resourceCountIs('AWS::IAM::Role', 10);
    ledger.stateful.resourceCountIs('AWS::IAM::Role', 0);
    const withManagedPolicy = { Properties: { ManagedPolicyArns: Match.anyValue() } };
    expect(ledger.stateless.findResources('AWS::IAM::Role', withManagedPolicy)).toEqual({});
  });

  // Each role's attached policy is asserted exactly (expectRolePolicy) next to its construct:
  // stateless-stack.test.ts (HTTP), events-consumer.test.ts, outbox.test.ts. Its inline policy
  // is the log permission below; together they are everything the role is granted.
  it("scopes each role's inline log permission to the function's own log group", () => {
    for (const [fn, logGroup] of [
      [ledger.stacks.stateless.httpFunction, ids.httpLogs],
      [ledger.stacks.stateless.eventsConsumer.function, ids.eventsLogs],
      [ledger.stacks.stateless.outboxDispatcher.function, ids.dispatcherLogs],
    ] as const) {
      expect(ledger.stateless.toJSON().Resources[roleIdOf(fn)].Properties.Policies).toEqual([
        {
          PolicyName: 'OwnLogGroup',
          PolicyDocument: {
            Version: '2012-10-17',
            Statement: [
              {
                Sid: 'WriteOwnLogGroup',
                Effect: 'Allow',
                Action: LOG_ACTIONS,
                Resource: arnOf(logGroup as string),
              },
            ],
          },
        },
      ]);
    }
  });

  it('gives no data action a "*" resource anywhere: the only "*" are ListStreams and exports/*', () => {
    const statements = [...allStatementsOf(ledger.stateless), ...allStatementsOf(ledger.stateful)];
    expect(statements.length).toBeGreaterThan(10);
    // The export files are named per execution: object actions on the exports/ prefix only.
    const exportObjects =
      /^\{"Fn::Join":\["",\["arn:",\{"Ref":"AWS::Partition"\},":s3:::dev-ledger-exports-",\{"Ref":"AWS::AccountId"\},"-",\{"Ref":"AWS::Region"\},"\/exports\/\*"\]\]\}$/;
    for (const statement of statements) {
      const actions = asList(statement.Action);
      for (const action of actions) expect(action, action).not.toContain('*');
      for (const resource of asList(statement.Resource)) {
        const resolved = JSON.stringify(exportedValue(ledger, resource));
        if (!resolved.includes('*')) continue;
        if (exportObjects.test(resolved)) {
          expect([
            ['s3:GetObject'],
            ['s3:PutObject', 's3:AbortMultipartUpload', 's3:DeleteObject'],
          ]).toContainEqual(actions);
        } else {
          expect(actions, resolved).toEqual(['dynamodb:ListStreams']);
        }
      }
    }
  });
});

describe('encryption and recovery', () => {
  let ledger: SynthesizedLedger;

  beforeAll(() => {
    ledger = synthLedger();
  }, SYNTH_HOOK_TIMEOUT_MS);

  it('encrypts all eleven queues with SQS-managed SSE', () => {
    const queues = Object.values(propertiesOf(ledger.stateful, 'AWS::SQS::Queue'));
    expect(queues).toHaveLength(11);
    for (const queue of queues)
      expect(queue.SqsManagedSseEnabled, String(queue.QueueName)).toBe(true);
    ledger.stateless.resourceCountIs('AWS::SQS::Queue', 0);
  });

  it('encrypts the table with the AWS-managed KMS key and keeps point-in-time recovery on', () => {
    ledger.stateful.hasResourceProperties('AWS::DynamoDB::Table', {
      SSESpecification: { SSEEnabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  it('encrypts the alarm topic with a rotated KMS key', () => {
    const keyId = onlyLogicalId(ledger.stateless, 'AWS::KMS::Key');
    ledger.stateless.hasResourceProperties('AWS::SNS::Topic', {
      KmsMasterKeyId: arnOf(keyId),
    });
    ledger.stateless.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
  });
});

describe('log groups', () => {
  const logGroupsOf = (template: Template) =>
    template.toJSON().Resources as Record<
      string,
      { Type: string; Properties: Record<string, unknown>; DeletionPolicy?: string }
    >;

  it('gives all eleven log groups (ten functions, API access logs) 30 days and keeps them by default', () => {
    const ledger = synthLedger();
    const groups = Object.entries(logGroupsOf(ledger.stateless)).filter(
      ([, r]) => r.Type === 'AWS::Logs::LogGroup',
    );
    expect(groups).toHaveLength(11);
    for (const [id, group] of groups) {
      expect(group.Properties.RetentionInDays, id).toBe(30);
      expect(group.DeletionPolicy, id).toBe('Retain');
    }
    ledger.stateful.resourceCountIs('AWS::Logs::LogGroup', 0);
    // Each function and the stage write to one of them.
    const groupIds = groups.map(([id]) => id);
    for (const fn of Object.values(propertiesOf(ledger.stateless, 'AWS::Lambda::Function'))) {
      expect(groupIds).toContain((fn.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref);
    }
    const stage =
      Object.values(propertiesOf(ledger.stateless, 'AWS::ApiGatewayV2::Stage'))[0] ?? {};
    const settings = stage.AccessLogSettings as { DestinationArn: { 'Fn::GetAtt': string[] } };
    const destination = settings.DestinationArn['Fn::GetAtt'][0];
    expect(groupIds).toContain(destination);
  });

  it('takes logRetentionDays and removalPolicy from context', () => {
    const ledger = synthLedger({ logRetentionDays: '365', removalPolicy: 'destroy' });
    const groups = Object.values(logGroupsOf(ledger.stateless)).filter(
      (r) => r.Type === 'AWS::Logs::LogGroup',
    );
    expect(groups).toHaveLength(11);
    for (const group of groups) {
      expect(group.Properties.RetentionInDays).toBe(365);
      expect(group.DeletionPolicy).toBe('Delete');
    }
    // The table is kept whatever removalPolicy says; queues and the secret follow it.
    ledger.stateful.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain' });
    for (const type of ['AWS::SQS::Queue', 'AWS::SecretsManager::Secret', 'AWS::KMS::Key']) {
      for (const resource of Object.values(ledger.stateful.findResources(type))) {
        expect(resource.DeletionPolicy, type).toBe('Delete');
      }
    }
  });
});

describe('API throttling and concurrency', () => {
  const stageOf = (template: Template) =>
    Object.values(propertiesOf(template, 'AWS::ApiGatewayV2::Stage'))[0] ?? {};
  const reservedOf = (ledger: SynthesizedLedger, fn: Parameters<typeof logicalIdOf>[0]) =>
    propertiesOfId(ledger.stateless, 'AWS::Lambda::Function', logicalIdOf(fn))
      .ReservedConcurrentExecutions;

  it('by default: stage 100/200, callbacks and health 50/100, documents 10/20; dispatcher reserves 2, the others none', () => {
    const ledger = synthLedger();
    const stage = stageOf(ledger.stateless);
    expect(stage.DefaultRouteSettings).toEqual({
      ThrottlingRateLimit: 100,
      ThrottlingBurstLimit: 200,
    });
    expect(stage.RouteSettings).toEqual({
      'POST /v1/callbacks/{applicationId}': { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
      'GET /v1/health': { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
      'GET /v1/openapi.json': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
      'GET /v1/problems/{code}': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
    });
    const { httpFunction, eventsConsumer, outboxDispatcher } = ledger.stacks.stateless;
    expect(reservedOf(ledger, outboxDispatcher.function)).toBe(2);
    expect(reservedOf(ledger, httpFunction)).toBeUndefined();
    expect(reservedOf(ledger, eventsConsumer.function)).toBeUndefined();
    // The consumer's runaway guard is the event source's maximum concurrency instead.
    ledger.stateless.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      ScalingConfig: { MaximumConcurrency: 5 },
    });
  });

  it('takes the limits and reservations from context (the documents capped at the stage limits)', () => {
    const ledger = synthLedger({
      apiRateLimit: '5',
      apiBurstLimit: '8',
      callbackRateLimit: '2',
      callbackBurstLimit: '4',
      httpReservedConcurrency: '25',
      dispatcherReservedConcurrency: 'none',
    });
    const stage = stageOf(ledger.stateless);
    expect(stage.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 8 });
    expect(stage.RouteSettings).toEqual({
      'POST /v1/callbacks/{applicationId}': { ThrottlingRateLimit: 2, ThrottlingBurstLimit: 4 },
      'GET /v1/health': { ThrottlingRateLimit: 2, ThrottlingBurstLimit: 4 },
      'GET /v1/openapi.json': { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 8 },
      'GET /v1/problems/{code}': { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 8 },
    });
    const { httpFunction, outboxDispatcher } = ledger.stacks.stateless;
    expect(reservedOf(ledger, httpFunction)).toBe(25);
    expect(reservedOf(ledger, outboxDispatcher.function)).toBeUndefined();
  });
});

describe('retention windows reach the TTL logic and the published OpenAPI document', () => {
  it('sets non-default IDEMPOTENCY_RETENTION_SECONDS / INBOX_RETENTION_SECONDS on both functions that write records, and the HTTP function publishes them', () => {
    const ledger = synthLedger({
      idempotencyRetentionSeconds: '7200',
      inboxRetentionSeconds: 1_209_600,
    });
    const { httpFunction, eventsConsumer } = ledger.stacks.stateless;
    for (const fn of [httpFunction, eventsConsumer.function]) {
      const vars = (
        propertiesOfId(ledger.stateless, 'AWS::Lambda::Function', logicalIdOf(fn)).Environment as {
          Variables: Record<string, unknown>;
        }
      ).Variables;
      expect(vars.IDEMPOTENCY_RETENTION_SECONDS, fn.node.path).toBe('7200');
      expect(vars.INBOX_RETENTION_SECONDS, fn.node.path).toBe('1209600');
    }
    // What the HTTP function does at cold start with that environment: the TTL logic and the
    // OpenAPI document read the same config.
    const vars = (
      propertiesOfId(ledger.stateless, 'AWS::Lambda::Function', logicalIdOf(httpFunction))
        .Environment as { Variables: Record<string, unknown> }
    ).Variables;
    const env = Object.fromEntries(
      Object.entries(vars).map(([name, value]) => [
        name,
        typeof value === 'string' ? value : 'resolved-at-deploy',
      ]),
    );
    const config = loadConfig(env);
    expect(config).toMatchObject({
      idempotencyRetentionSeconds: 7200,
      inboxRetentionSeconds: 1_209_600,
    });
    expect(buildOpenApiDocument(config).info).toMatchObject({
      'x-idempotency-retention-seconds': 7200,
      'x-inbox-retention-seconds': 1_209_600,
    });
  });
});
