import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpIamAuthorizer, HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { AuthConfig } from '../config';

/** One route of the public contract. */
export interface LedgerRoute {
  readonly method: apigwv2.HttpMethod;
  readonly path: string;
  /** Reachable without credentials. Everything else goes through the API's authorizer. */
  readonly public?: boolean;
}

const { GET, POST } = apigwv2.HttpMethod;

/** Signed callbacks (contract §7): no authorizer, the handler checks the HMAC signature. */
export const CALLBACKS_ROUTE_PATH = '/v1/callbacks/{applicationId}';

/** Route key of the callbacks route, as used in the stage's route settings. */
export const CALLBACKS_ROUTE_KEY = `POST ${CALLBACKS_ROUTE_PATH}`;

/** Routes served by the HTTP handler (payload format 2.0). */
export const LEDGER_ROUTES: readonly LedgerRoute[] = [
  { method: POST, path: '/v1/accounts' },
  { method: GET, path: '/v1/accounts/{accountId}' },
  { method: POST, path: '/v1/accounts/{accountId}/transactions' },
  { method: GET, path: '/v1/accounts/{accountId}/transactions' },
  { method: GET, path: '/v1/accounts/{accountId}/event-sources' },
  { method: POST, path: '/v1/accounts/{accountId}/exports' },
  { method: GET, path: '/v1/tasks/{taskId}' },
  { method: POST, path: '/v1/tasks/{taskId}/reruns' },
  { method: POST, path: CALLBACKS_ROUTE_PATH, public: true },
  { method: GET, path: '/v1/openapi.json', public: true },
];

export interface LedgerHttpApiProps {
  /** Function that handles every route. */
  readonly handler: lambda.IFunction;

  /** JWT authorizer when `kind: 'jwt'`, IAM (SigV4) otherwise. */
  readonly auth: AuthConfig;

  /** Shown in the console; also the API name. @default - CDK-generated name */
  readonly apiName?: string;

  /**
   * Steady-state requests per second across the default stage.
   * @default 100
   */
  readonly throttleRateLimit?: number;

  /**
   * Burst capacity of the default stage.
   * @default 200
   */
  readonly throttleBurstLimit?: number;

  /**
   * Steady-state requests per second on `POST /v1/callbacks/{applicationId}`. The route has no
   * authorizer, so anyone can reach the function through it; its own, lower limit keeps
   * unsigned traffic from using up the stage's capacity (a route setting replaces the stage
   * default for that route).
   * @default 50
   */
  readonly callbackThrottleRateLimit?: number;

  /**
   * Burst capacity of the callbacks route.
   * @default 100
   */
  readonly callbackThrottleBurstLimit?: number;

  /**
   * Retention of the access log group.
   * @default logs.RetentionDays.ONE_MONTH
   */
  readonly accessLogRetention?: logs.RetentionDays;
}

/** HTTP API variables written per request to the access log (one JSON object per line). */
const ACCESS_LOG_FORMAT = JSON.stringify({
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  method: '$context.httpMethod',
  routeKey: '$context.routeKey',
  path: '$context.path',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  authorizerError: '$context.authorizer.error',
});

/**
 * The ledger's HTTP API: one Lambda proxy integration (payload 2.0) behind every route, an
 * authorizer on every route except the OpenAPI document and the signed callbacks, and a
 * throttled, access-logged `$default` stage with its own, lower limit for the callbacks route.
 */
export class LedgerHttpApi extends Construct {
  readonly api: apigwv2.HttpApi;
  readonly stage: apigwv2.HttpStage;
  readonly accessLogGroup: logs.LogGroup;
  /** Invoke URL of the `$default` stage (ends with `/`). */
  readonly url: string;

  constructor(scope: Construct, id: string, props: LedgerHttpApiProps) {
    super(scope, id);

    const authorizer: apigwv2.IHttpRouteAuthorizer =
      props.auth.kind === 'jwt'
        ? new HttpJwtAuthorizer('JwtAuthorizer', props.auth.issuer, {
            jwtAudience: [...props.auth.audience],
          })
        : new HttpIamAuthorizer();

    this.api = new apigwv2.HttpApi(this, 'Api', {
      apiName: props.apiName,
      // Secure by default: a route added without an explicit authorizer is still protected.
      defaultAuthorizer: authorizer,
      // The stage is created below so it can carry throttling and access logging.
      createDefaultStage: false,
    });

    this.accessLogGroup = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.accessLogRetention ?? logs.RetentionDays.ONE_MONTH,
    });

    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: {
        rateLimit: props.throttleRateLimit ?? 100,
        burstLimit: props.throttleBurstLimit ?? 200,
      },
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(this.accessLogGroup),
        format: AccessLogFormat.custom(ACCESS_LOG_FORMAT),
      },
    });
    this.url = this.stage.url;

    const integration = new HttpLambdaIntegration('Handler', props.handler, {
      payloadFormatVersion: apigwv2.PayloadFormatVersion.VERSION_2_0,
    });
    const none = new apigwv2.HttpNoneAuthorizer();
    const routes = new Map<string, apigwv2.HttpRoute>();
    for (const route of LEDGER_ROUTES) {
      const [added] = this.api.addRoutes({
        path: route.path,
        methods: [route.method],
        integration,
        ...(route.public ? { authorizer: none } : {}),
      });
      if (added) routes.set(`${route.method} ${route.path}`, added);
    }

    // HttpStage has no per-route settings: set them on the CloudFormation resource. The route
    // must exist before the stage names it ("Unable to find Route by key"), hence the dependency.
    const callbacksRoute = routes.get(CALLBACKS_ROUTE_KEY);
    if (!callbacksRoute) throw new Error(`${CALLBACKS_ROUTE_KEY} missing from LEDGER_ROUTES`);
    const cfnStage = this.stage.node.defaultChild as apigwv2.CfnStage;
    cfnStage.routeSettings = {
      [CALLBACKS_ROUTE_KEY]: {
        ThrottlingRateLimit: props.callbackThrottleRateLimit ?? 50,
        ThrottlingBurstLimit: props.callbackThrottleBurstLimit ?? 100,
      },
    };
    this.stage.node.addDependency(callbacksRoute);
  }
}
