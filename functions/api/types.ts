import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/**
 * API Gateway HTTP API payload v2 event. The authorizer context is typed loosely on purpose:
 * JWT (`jwt.claims.sub`) and IAM (`iam.userArn`) shapes are both read by `principal.ts`.
 */
export type HttpEvent = APIGatewayProxyEventV2 & {
  requestContext: APIGatewayProxyEventV2['requestContext'] & { authorizer?: unknown };
};

export type HttpResult = APIGatewayProxyStructuredResultV2 & {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
};

/** What the HTTP function reads of its Lambda context: the time it has left. */
export interface HttpContext {
  getRemainingTimeInMillis(): number;
}

/** `context` is the Lambda's; without one (the local stack) the deployed timeout is emulated. */
export type HttpHandler = (event: HttpEvent, context?: HttpContext) => Promise<HttpResult>;
