import { UnauthenticatedError } from '../domain/shared/errors';
import type { HttpEvent } from './types';

/**
 * The caller as API Gateway authenticated it: the JWT `sub` claim, or the IAM caller ARN.
 * Headers are never trusted here; the local stack maps its `X-Principal-Id` into the JWT shape.
 */
export function principalOf(event: HttpEvent): string {
  const authorizer = event.requestContext.authorizer as
    | { jwt?: { claims?: Record<string, unknown> }; iam?: { userArn?: unknown } }
    | undefined;
  const sub = authorizer?.jwt?.claims?.sub;
  if (typeof sub === 'string' && sub.length > 0) return sub;
  const arn = authorizer?.iam?.userArn;
  if (typeof arn === 'string' && arn.length > 0) return iamPrincipal(arn);
  throw new UnauthenticatedError();
}

/**
 * An assumed-role caller is its role: the session name is chosen by whoever assumes the role,
 * so it cannot be part of the identity (docs/contract.md §2). IAM users keep their user ARN.
 */
const ASSUMED_ROLE = /^(arn:[^:]+:sts::\d{12}:assumed-role\/[^/]+)\/[^/]*$/;

export function iamPrincipal(arn: string): string {
  return ASSUMED_ROLE.exec(arn)?.[1] ?? arn;
}
