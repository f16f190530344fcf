import {
  LOCAL_PRINCIPAL_CHARACTERS,
  LOCAL_PRINCIPAL_HEADER,
  LOCAL_PRINCIPAL_MAX_LENGTH,
} from '../contract/local-stack';
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
  throw new UnauthenticatedError(NO_PRINCIPAL);
}

/**
 * What a caller without a principal must do (issue 49): a deployed API's authorizer answers
 * before the service runs, so a caller who reads this is almost always on the local stack.
 */
export const NO_PRINCIPAL =
  `This request needs an authenticated principal. On the local stack, send the header ` +
  `${LOCAL_PRINCIPAL_HEADER}: <1-${LOCAL_PRINCIPAL_MAX_LENGTH} characters of ` +
  `${LOCAL_PRINCIPAL_CHARACTERS}> (for example ${LOCAL_PRINCIPAL_HEADER}: alice); a deployed ` +
  'API takes the principal from its JWT or IAM authorizer instead.';

/**
 * An assumed-role caller is its role: the session name is chosen by whoever assumes the role,
 * so it cannot be part of the identity (docs/contract.md §2). IAM users keep their user ARN.
 */
const ASSUMED_ROLE = /^(arn:[^:]+:sts::\d{12}:assumed-role\/[^/]+)\/[^/]*$/;

export function iamPrincipal(arn: string): string {
  return ASSUMED_ROLE.exec(arn)?.[1] ?? arn;
}
