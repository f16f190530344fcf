import { isDeepStrictEqual as isEqual } from 'node:util';
import { Capture, Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_LIST } from '../../../functions/api/routes';
import { routeKey } from '../../../functions/api/spec';
import {
  asList,
  callbackSecretId,
  EXPORT_BUCKET_ARN,
  EXPORT_BUCKET_NAME,
  expectRolePolicy,
  importOf,
  logicalIdOf,
  onlyLogicalId,
  propertiesOf,
  SYNTH_HOOK_TIMEOUT_MS,
  type SynthesizedLedger,
  statementsOf,
  synthLedger,
} from '../synth';

/**
 * The route set and each route's authorization are held to the route specs in routes.test.ts;
 * the specs' route keys are written out on their own in test/unit/api/specs.test.ts.
 */
const PUBLIC_ROUTES = ROUTE_LIST.filter((spec) => spec.public).map(routeKey);

const TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
];

const ISSUER = 'https://issuer.example.com/';
const HTTP_DESCRIPTION = 'idempotent-ledger HTTP API (payload v2)';

function routesByKey(template: Template): Map<string, Record<string, unknown>> {
  const routes = Object.values(propertiesOf(template, 'AWS::ApiGatewayV2::Route'));
  return new Map(routes.map((r) => [r.RouteKey as string, r]));
}

describe('StatelessStack (IAM auth, default config)', () => {
  let ledger: SynthesizedLedger;
  let template: Template;
  let tableId: string;
  let secretId: string;
  let functionId: string;

  /** Webhooks' stateful resources by logical id (test/infra/webhooks). */
  const statefulId = (type: string, prefix: string) => {
    const ids = Object.keys(ledger.stateful.findResources(type)).filter((id) =>
      id.startsWith(prefix),
    );
    if (ids.length !== 1 || !ids[0]) throw new Error(`expected one ${type} ${prefix}`);
    return ids[0];
  };
  const webhookQueueId = () => statefulId('AWS::SQS::Queue', 'WebhooksDeliveriesQueue');
  const sealingSecretId = () => statefulId('AWS::SecretsManager::Secret', 'WebhooksSealingSecret');
  const sealingKeyId = () => statefulId('AWS::KMS::Key', 'WebhooksSealingKey');

  beforeAll(() => {
    ledger = synthLedger();
    template = ledger.stateless;
    tableId = onlyLogicalId(ledger.stateful, 'AWS::DynamoDB::Table');
    secretId = callbackSecretId(ledger.stateful);
    functionId = logicalIdOf(ledger.stacks.stateless.httpFunction);
  }, SYNTH_HOOK_TIMEOUT_MS);

  it('runs the HTTP function on Node.js 22, arm64, 512 MB, 10 s, ESM handler', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: HTTP_DESCRIPTION,
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      MemorySize: 512,
      Timeout: 10,
      Handler: 'index.handler',
    });
  });

  it('passes table name, retention windows, export fee and callback settings via env, no NODE_OPTIONS', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: HTTP_DESCRIPTION,
      Environment: {
        Variables: Match.exact({
          TABLE_NAME: importOf(ledger, { Ref: tableId }),
          IDEMPOTENCY_RETENTION_SECONDS: '86400',
          INBOX_RETENTION_SECONDS: '2592000',
          EXPORT_FEE: '100',
          CALLBACK_APPLICATION_ID: 'export-worker',
          BACKDATE_LIMIT_DAYS: '90',
          INTAKE_SHARDS: '8',
          EXPORT_EXECUTION_TIMEOUT_SECONDS: '900',
          MAX_RERUNS_PER_TASK: '20',
          EXPORT_RETENTION_DAYS: '7',
          EXPORT_BUCKET: EXPORT_BUCKET_NAME,
          // `Ref` of an AWS::SecretsManager::Secret is its full ARN.
          CALLBACK_SECRETS_ARN: importOf(ledger, { Ref: secretId }),
          // Nobody but the owners unless context journalReaders names someone (§15).
          JOURNAL_READERS: '[]',
          // The hedged claim read (§36): adaptive unless context idempotencyHedgedRead says.
          IDEMPOTENCY_HEDGED_READ: 'adaptive',
          // Webhooks (§32): retries queue there; the key that seals endpoint secrets.
          WEBHOOK_QUEUE_URL: importOf(ledger, { Ref: webhookQueueId() }),
          WEBHOOK_SEALING_KEY_ARN: importOf(ledger, { Ref: sealingSecretId() }),
        }),
      },
    });
  });

  it('hands context backdateLimitDays to every function that writes movements (§26)', () => {
    const functions = Object.values(
      propertiesOf(synthLedger({ backdateLimitDays: '30' }).stateless, 'AWS::Lambda::Function'),
    );
    const services = functions.filter((fn) => {
      const vars = (fn.Environment as { Variables?: Record<string, unknown> })?.Variables ?? {};
      return 'IDEMPOTENCY_RETENTION_SECONDS' in vars;
    });
    const described = services.map((fn) => String(fn.Description));
    expect(described).toContain(HTTP_DESCRIPTION);
    expect(described.some((d) => d.includes('ledger-events consumer'))).toBe(true);
    for (const fn of services) {
      expect(fn.Environment).toMatchObject({ Variables: { BACKDATE_LIMIT_DAYS: '30' } });
    }
  });

  it('hands context intakeShards to the HTTP function, which creates deferred accounts (§24)', () => {
    const functions = Object.values(
      propertiesOf(synthLedger({ intakeShards: '3' }).stateless, 'AWS::Lambda::Function'),
    );
    const http = functions.find((fn) => String(fn.Description) === HTTP_DESCRIPTION);
    expect(http?.Environment).toMatchObject({ Variables: { INTAKE_SHARDS: '3' } });
  });

  it('hands context intakeStrandedAfterSeconds to the dispatcher and the sweeper (§36)', () => {
    const functions = Object.values(
      propertiesOf(
        synthLedger({ intakeStrandedAfterSeconds: '45' }).stateless,
        'AWS::Lambda::Function',
      ),
    );
    const described = (part: string) =>
      functions.filter((fn) => String(fn.Description).includes(part));
    const readers = [...described('outbox dispatcher'), ...described('sweeper')];
    expect(readers).toHaveLength(2);
    for (const fn of readers) {
      expect(fn.Environment).toMatchObject({ Variables: { INTAKE_STRANDED_AFTER_SECONDS: '45' } });
    }
  });

  it('logs the function to its own log group with one-month retention', () => {
    const logGroup = new Capture();
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: HTTP_DESCRIPTION,
      LoggingConfig: { LogGroup: { Ref: logGroup } },
    });
    expect(template.toJSON().Resources[logGroup.asString()]).toMatchObject({
      Type: 'AWS::Logs::LogGroup',
      Properties: { RetentionInDays: 30 },
    });
  });

  it('grants the HTTP function item-level table actions, GetSecretValue on the secret and GetObject on exports/*, nothing else', () => {
    expectRolePolicy(ledger, ledger.stacks.stateless.httpFunction, [
      {
        Sid: 'LedgerTableItemAccess',
        Action: TABLE_ACTIONS,
        Resource: importOf(ledger, { 'Fn::GetAtt': [tableId, 'Arn'] }),
      },
      {
        Sid: 'MonitorDelete',
        Action: 'dynamodb:DeleteItem',
        Resource: importOf(ledger, { 'Fn::GetAtt': [tableId, 'Arn'] }),
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['MONITOR#*'] } },
      },
      {
        Sid: 'CallbackSecretRead',
        Action: 'secretsmanager:GetSecretValue',
        Resource: importOf(ledger, { Ref: secretId }),
      },
      {
        Sid: 'ExportResultsRead',
        Action: 's3:GetObject',
        Resource: { 'Fn::Join': ['', [...EXPORT_BUCKET_ARN, '/exports/*']] },
      },
      {
        Sid: 'ExportBucketList',
        Action: 's3:ListBucket',
        Resource: { 'Fn::Join': ['', EXPORT_BUCKET_ARN] },
      },
      {
        Sid: 'WebhookSealingKeyRead',
        Action: 'secretsmanager:GetSecretValue',
        Resource: importOf(ledger, { Ref: sealingSecretId() }),
      },
      {
        Sid: 'WebhookSealingKeyDecrypt',
        Action: 'kms:Decrypt',
        Resource: importOf(ledger, { 'Fn::GetAtt': [sealingKeyId(), 'Arn'] }),
      },
      {
        Sid: 'WebhookRetryQueue',
        Action: 'sqs:SendMessage',
        Resource: importOf(ledger, { 'Fn::GetAtt': [webhookQueueId(), 'Arn'] }),
      },
      {
        Sid: 'WebhookEndpointDelete',
        Action: 'dynamodb:DeleteItem',
        Resource: importOf(ledger, { 'Fn::GetAtt': [tableId, 'Arn'] }),
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['WEBHOOKS#*'] } },
      },
    ]);
  });

  it('has no Scan or service wildcard anywhere, DeleteItem only of reconciler marks, monitors and posted pending credits, and "*" only for dynamodb:ListStreams', () => {
    for (const t of [template, ledger.stateful]) {
      for (const statement of statementsOf(t)) {
        const actions = asList(statement.Action);
        const dueMarkers = {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['INTAKE_DUE#*'] },
        };
        if (actions.includes('dynamodb:DeleteItem') && isEqual(statement.Condition, dueMarkers)) {
          // The folder reads and deletes a drained account's INTAKE_DUE marker, the sweeper
          // postpones or deletes it (docs/contract.md §24): markers only, never money items.
          for (const action of actions) {
            expect(['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']).toContain(
              action,
            );
          }
        } else if (actions.includes('dynamodb:DeleteItem')) {
          // The reconciler clears the marks of checked accounts (docs/contract.md §19), the HTTP
          // function deletes balance monitors (§28), the folder posted pending credits (§24),
          // the search indexer index items (§34), nothing else.
          expect(actions).toEqual(['dynamodb:DeleteItem']);
          expect([
            { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RECONCILE_MARK#*'] } },
            { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['MONITOR#*'] } },
            { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['INTAKE#*#*'] } },
            { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['WEBHOOKS#*'] } },
            // The search indexer removes index items of removed pairs (§34).
            { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['SEARCH#*'] } },
          ]).toContainEqual(statement.Condition);
        }
        expect(actions).not.toContain('dynamodb:Scan');
        for (const action of actions) expect(action).not.toMatch(/\*/);
        for (const resource of asList(statement.Resource)) {
          if (typeof resource === 'string' && resource.includes('*')) {
            // Needed by the stream event source; lists stream ARNs, reads no data, and has no
            // resource-level permissions.
            expect(resource).toBe('*');
            expect(actions).toEqual(['dynamodb:ListStreams']);
          }
        }
      }
    }
  });

  it('uses IAM (SigV4) without an authorizer resource', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 0);
  });

  it('sends every route to one payload 2.0 Lambda proxy integration', () => {
    const integrationId = onlyLogicalId(template, 'AWS::ApiGatewayV2::Integration');
    template.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
      IntegrationUri: { 'Fn::GetAtt': [functionId, 'Arn'] },
    });
    for (const [key, route] of routesByKey(template)) {
      expect(route.Target, key).toEqual({
        'Fn::Join': ['', ['integrations/', { Ref: integrationId }]],
      });
    }
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'apigateway.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [functionId, 'Arn'] },
    });
  });

  it('throttles the auto-deployed $default stage (rate 100, burst 200)', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
    });
  });

  it('throttles the unauthenticated routes on their own (callbacks and health 50/100, documents 10/20), after creating them', () => {
    const stageId = onlyLogicalId(template, 'AWS::ApiGatewayV2::Stage');
    const stage = template.toJSON().Resources[stageId] as {
      Properties: { RouteSettings: unknown };
      DependsOn?: string[];
    };
    expect(stage.Properties.RouteSettings).toEqual({
      'POST /v1/callbacks/{applicationId}': { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
      'GET /v1/health': { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
      'GET /v1/openapi.json': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
      'GET /v1/problems/{code}': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
    });
    // API Gateway rejects route settings for a route key that does not exist yet.
    for (const key of PUBLIC_ROUTES) {
      const [routeId] = Object.entries(propertiesOf(template, 'AWS::ApiGatewayV2::Route'))
        .filter(([, r]) => r.RouteKey === key)
        .map(([id]) => id);
      expect(stage.DependsOn, key).toContain(routeId);
    }
  });

  it('writes JSON access logs to a log group with one-month retention', () => {
    const stage = Object.values(propertiesOf(template, 'AWS::ApiGatewayV2::Stage'))[0];
    const settings = stage?.AccessLogSettings as {
      DestinationArn: { 'Fn::GetAtt': [string, string] };
      Format: string;
    };
    const [logGroupId] = settings.DestinationArn['Fn::GetAtt'];
    expect(propertiesOf(template, 'AWS::Logs::LogGroup')[logGroupId]).toEqual({
      RetentionInDays: 30,
    });
    expect(JSON.parse(settings.Format)).toMatchObject({
      requestId: '$context.requestId',
      routeKey: '$context.routeKey',
      status: '$context.status',
    });
  });

  it('outputs the API URL', () => {
    const apiId = onlyLogicalId(template, 'AWS::ApiGatewayV2::Api');
    template.hasOutput('ApiUrl', {
      Value: {
        'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp('^https://'), { Ref: apiId }])],
      },
    });
  });
});

describe('StatelessStack (JWT auth, custom retention)', () => {
  let template: Template;

  beforeAll(() => {
    template = synthLedger({
      stage: 'prod',
      jwtIssuer: ISSUER,
      jwtAudience: 'ledger-api,ledger-cli',
      idempotencyRetentionSeconds: '3600',
      inboxRetentionSeconds: 7200,
      exportFee: '250',
      callbackApplicationId: 'exporter.prod',
    }).stateless;
  }, SYNTH_HOOK_TIMEOUT_MS);

  it('configures one JWT authorizer from jwtIssuer and jwtAudience', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: { Issuer: ISSUER, Audience: ['ledger-api', 'ledger-cli'] },
    });
  });

  it('passes the configured retention windows, fee and callback application to the function', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          IDEMPOTENCY_RETENTION_SECONDS: '3600',
          INBOX_RETENTION_SECONDS: '7200',
          EXPORT_FEE: '250',
          CALLBACK_APPLICATION_ID: 'exporter.prod',
          CALLBACK_SECRETS_ARN: Match.anyValue(),
        }),
      },
    });
  });
});
