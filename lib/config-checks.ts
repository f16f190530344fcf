import type * as z from 'zod';
import { show } from './config-rules';
import type { AuthConfig, ThrottleConfig } from './config-types';

/**
 * The settings of lib/config.ts that depend on one another, resolved in its schema's
 * `transform`: each adds an issue naming the key at fault and returns the resolved value.
 */

/**
 * `$default` stage throttling when `apiRateLimit` / `apiBurstLimit` are not set. The callbacks
 * route defaults to half of each (50 / 100), see {@link halfOf}.
 */
export const DEFAULT_API_THROTTLE: ThrottleConfig = { rateLimit: 100, burstLimit: 200 };

/** The callbacks route's default limits: half the stage's, never below 1. */
const halfOf = (throttle: ThrottleConfig): ThrottleConfig => ({
  rateLimit: Math.max(1, Math.floor(throttle.rateLimit / 2)),
  burstLimit: Math.max(1, Math.floor(throttle.burstLimit / 2)),
});

/** Both JWT settings or neither: one alone is a mistake, not a request for IAM. */
export function authOf(
  context: { readonly jwtIssuer?: string; readonly jwtAudience?: string[] },
  ctx: z.RefinementCtx,
): AuthConfig {
  const { jwtIssuer: issuer, jwtAudience: audience } = context;
  if (issuer !== undefined && audience === undefined) {
    const message = 'jwtIssuer is set but jwtAudience is missing; set both or neither';
    ctx.addIssue({ code: 'custom', path: ['jwtAudience'], message });
  }
  if (issuer === undefined && audience !== undefined) {
    const message = 'jwtAudience is set but jwtIssuer is missing; set both or neither';
    ctx.addIssue({ code: 'custom', path: ['jwtIssuer'], message });
  }
  return issuer !== undefined && audience !== undefined
    ? { kind: 'jwt', issuer, audience }
    : { kind: 'iam' };
}

type ThrottleKey = 'apiRateLimit' | 'apiBurstLimit' | 'callbackRateLimit' | 'callbackBurstLimit';

/**
 * The callbacks route has no authorizer, so its limits may not exceed the stage's. A burst below
 * the rate is allowed (AWS's own regional defaults are 10,000 / 5,000).
 */
export function checkThrottling(
  context: Readonly<Partial<Record<ThrottleKey, number>>>,
  ctx: z.RefinementCtx,
) {
  const apiThrottle: ThrottleConfig = {
    rateLimit: context.apiRateLimit ?? DEFAULT_API_THROTTLE.rateLimit,
    burstLimit: context.apiBurstLimit ?? DEFAULT_API_THROTTLE.burstLimit,
  };
  const callbackThrottle: ThrottleConfig = {
    rateLimit: context.callbackRateLimit ?? halfOf(apiThrottle).rateLimit,
    burstLimit: context.callbackBurstLimit ?? halfOf(apiThrottle).burstLimit,
  };
  for (const [key, limit] of [
    ['callbackRateLimit', 'rateLimit'],
    ['callbackBurstLimit', 'burstLimit'],
  ] as const) {
    if (callbackThrottle[limit] > apiThrottle[limit]) {
      const message = `${key} must be an integer from 1 to ${apiThrottle[limit]}; got ${show(context[key])}`;
      ctx.addIssue({ code: 'custom', path: [key], message });
    }
  }
  return { apiThrottle, callbackThrottle };
}

/** A reserved concurrency setting: `none` reserves nothing, unset takes `fallback`. */
export const reserved = (value: number | 'none' | undefined, fallback: number | undefined) =>
  value === 'none' ? undefined : (value ?? fallback);
