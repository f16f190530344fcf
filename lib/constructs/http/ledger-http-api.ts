import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpIamAuthorizer, HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ROUTE_LIST } from '../../../functions/api/routes';
import { type ListedRoute, routeKey, type Throttle } from '../../../functions/api/spec';
import type { AuthConfig } from '../../config';

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
   * Steady-state requests per second on each public route whose spec asks for the callback
   * limits (the signed callbacks). Such a route has no authorizer, so anyone can reach the
   * function through it; its own, lower limit keeps unsigned traffic from using up the stage's
   * capacity (a route setting replaces the stage default for that route).
   * @default 50
   */
  readonly callbackThrottleRateLimit?: number;

  /**
   * Burst capacity of those routes.
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
 * The ledger's HTTP API: one Lambda proxy integration (payload 2.0) behind every route the
 * function serves (the route specs, functions/api/routes.ts), the configured authorizer on every
 * route except the public ones, and a throttled, access-logged `$default` stage with each public
 * route's own, lower limits and its cdk-nag acknowledgement taken from its spec.
 */
export class LedgerHttpApi extends Construct {
  readonly api: apigwv2.HttpApi;
  readonly stage: apigwv2.HttpStage;
  readonly accessLogGroup: logs.LogGroup;
  /** Invoke URL of the `$default` stage (ends with `/`). */
  readonly url: string;
  private readonly none = new apigwv2.HttpNoneAuthorizer();

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

    const stageThrottle = {
      rateLimit: props.throttleRateLimit ?? 100,
      burstLimit: props.throttleBurstLimit ?? 200,
    };
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: stageThrottle,
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(this.accessLogGroup),
        format: AccessLogFormat.custom(ACCESS_LOG_FORMAT),
      },
    });
    this.url = this.stage.url;

    const integration = new HttpLambdaIntegration('Handler', props.handler, {
      payloadFormatVersion: apigwv2.PayloadFormatVersion.VERSION_2_0,
    });
    const callbackThrottle = {
      rateLimit: props.callbackThrottleRateLimit ?? 50,
      burstLimit: props.callbackThrottleBurstLimit ?? 100,
    };
    const routeSettings: Record<string, RouteSetting> = {};
    for (const spec of ROUTE_LIST) {
      const route = this.addRoute(spec, integration);
      if (!spec.public) continue;
      const { reason, throttle } = spec.public;
      Validations.of(route).acknowledge({ id: 'AwsSolutions-APIG4', reason });
      routeSettings[routeKey(spec)] = routeSetting(
        throttle === 'callback-limits' ? callbackThrottle : capped(throttle, stageThrottle),
      );
      // A route must exist before the stage names it ("Unable to find Route by key").
      this.stage.node.addDependency(route);
    }
    // HttpStage has no per-route settings: set them on the CloudFormation resource.
    const cfnStage = this.stage.node.defaultChild as apigwv2.CfnStage;
    cfnStage.routeSettings = routeSettings;
  }

  /** One route of a spec; a public one without an authorizer. */
  private addRoute(spec: ListedRoute, integration: HttpLambdaIntegration): apigwv2.HttpRoute {
    const [route] = this.api.addRoutes({
      path: spec.path,
      methods: [apigwv2.HttpMethod[spec.method]],
      integration,
      ...(spec.public ? { authorizer: this.none } : {}),
    });
    if (!route) throw new Error(`no route created for ${routeKey(spec)}`);
    return route;
  }
}

interface RouteSetting {
  readonly ThrottlingRateLimit: number;
  readonly ThrottlingBurstLimit: number;
}

const routeSetting = (throttle: Throttle): RouteSetting => ({
  ThrottlingRateLimit: throttle.rateLimit,
  ThrottlingBurstLimit: throttle.burstLimit,
});

/** A route's fixed limits never exceed the stage's. */
const capped = (throttle: Throttle, stage: Throttle): Throttle => ({
  rateLimit: Math.min(throttle.rateLimit, stage.rateLimit),
  burstLimit: Math.min(throttle.burstLimit, stage.burstLimit),
});
