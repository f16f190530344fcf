import { RemovalPolicy, Validations } from 'aws-cdk-lib';
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
const CALLBACKS_ROUTE_PATH = '/v1/callbacks/{applicationId}';

/** Route key of the callbacks route, as used in the stage's route settings. */
const CALLBACKS_ROUTE_KEY = `POST ${CALLBACKS_ROUTE_PATH}`;

/** The OpenAPI document: no auth (contract §5). */
const OPENAPI_ROUTE_PATH = '/v1/openapi.json';

/** Route key of the OpenAPI route, as used in the stage's route settings. */
const OPENAPI_ROUTE_KEY = `GET ${OPENAPI_ROUTE_PATH}`;

/**
 * Throttling of the OpenAPI route: the document is static and public, so a client needs it
 * rarely; a low limit keeps anonymous traffic on it from costing invocations. Capped at the
 * stage's own limits.
 */
const OPENAPI_THROTTLE = { rateLimit: 10, burstLimit: 20 } as const;

/** Why the two public routes have no authorizer (cdk-nag AwsSolutions-APIG4). */
const PUBLIC_ROUTE_REASONS: Readonly<Record<string, string>> = {
  [CALLBACKS_ROUTE_KEY]:
    'Signed callbacks come from export workers that hold no AWS or JWT credentials (contract §7): the function verifies the HMAC-SHA256 Callback-Signature over the raw body in constant time, rejects timestamps older than 300 s, and changes nothing for a rejected callback. The route has its own, lower throttle.',
  [OPENAPI_ROUTE_KEY]:
    'The OpenAPI document is public by contract (§5): it holds no data, only the API description and retention windows, and has its own low throttle.',
};

/** Routes served by the HTTP handler (payload format 2.0). */
const LEDGER_ROUTES: readonly LedgerRoute[] = [
  { method: POST, path: '/v1/accounts' },
  { method: GET, path: '/v1/accounts/{accountId}' },
  { method: POST, path: '/v1/accounts/{accountId}/transactions' },
  { method: GET, path: '/v1/accounts/{accountId}/transactions' },
  { method: GET, path: '/v1/accounts/{accountId}/event-sources' },
  { method: POST, path: '/v1/accounts/{accountId}/exports' },
  { method: GET, path: '/v1/tasks/{taskId}' },
  { method: POST, path: '/v1/tasks/{taskId}/reruns' },
  { method: POST, path: CALLBACKS_ROUTE_PATH, public: true },
  { method: GET, path: OPENAPI_ROUTE_PATH, public: true },
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

  /**
   * What happens to the access log group when it leaves the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly accessLogRemovalPolicy?: RemovalPolicy;
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
 * throttled, access-logged `$default` stage with its own, lower limits for the two public routes
 * (the callbacks and the OpenAPI document).
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
      removalPolicy: props.accessLogRemovalPolicy ?? RemovalPolicy.RETAIN,
    });

    const stageRate = props.throttleRateLimit ?? 100;
    const stageBurst = props.throttleBurstLimit ?? 200;
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: {
        rateLimit: stageRate,
        burstLimit: stageBurst,
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
      const key = `${route.method} ${route.path}`;
      const [added] = this.api.addRoutes({
        path: route.path,
        methods: [route.method],
        integration,
        ...(route.public ? { authorizer: none } : {}),
      });
      if (!added) continue;
      routes.set(key, added);
      if (route.public) {
        const reason = PUBLIC_ROUTE_REASONS[key];
        if (!reason) throw new Error(`public route ${key} needs a reason in PUBLIC_ROUTE_REASONS`);
        Validations.of(added).acknowledge({ id: 'AwsSolutions-APIG4', reason });
      }
    }

    // HttpStage has no per-route settings: set them on the CloudFormation resource. A route must
    // exist before the stage names it ("Unable to find Route by key"), hence the dependencies.
    const routeSettings: Record<
      string,
      { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }
    > = {
      [CALLBACKS_ROUTE_KEY]: {
        ThrottlingRateLimit: props.callbackThrottleRateLimit ?? 50,
        ThrottlingBurstLimit: props.callbackThrottleBurstLimit ?? 100,
      },
      [OPENAPI_ROUTE_KEY]: {
        ThrottlingRateLimit: Math.min(OPENAPI_THROTTLE.rateLimit, stageRate),
        ThrottlingBurstLimit: Math.min(OPENAPI_THROTTLE.burstLimit, stageBurst),
      },
    };
    for (const key of Object.keys(routeSettings)) {
      const route = routes.get(key);
      if (!route) throw new Error(`${key} missing from LEDGER_ROUTES`);
      this.stage.node.addDependency(route);
    }
    const cfnStage = this.stage.node.defaultChild as apigwv2.CfnStage;
    cfnStage.routeSettings = routeSettings;
  }
}
