import { Validations } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_LIST } from '../../../functions/api/routes';
import { routeKey } from '../../../functions/api/spec';
import {
  onlyLogicalId,
  propertiesOf,
  SYNTH_HOOK_TIMEOUT_MS,
  type SynthesizedLedger,
  synthLedger,
} from '../synth';

/**
 * issue 23: the HTTP API that `cdk deploy` creates routes exactly what the function serves (the
 * route specs the router and the OpenAPI document are derived from), each with its
 * authorization; a route a spec adds is deployed or this fails.
 */
const CONFIGS = {
  IAM: { context: {}, authorization: 'AWS_IAM' },
  JWT: {
    context: { jwtIssuer: 'https://issuer.example.com/', jwtAudience: 'ledger-api' },
    authorization: 'JWT',
  },
} as const;

const publicKeys = ROUTE_LIST.filter((spec) => spec.public).map(routeKey);

function deployedRoutes(template: Template) {
  return Object.entries(propertiesOf(template, 'AWS::ApiGatewayV2::Route')).map(([id, r]) => ({
    id,
    key: String(r.RouteKey),
    authorization: String(r.AuthorizationType),
    authorizerId: r.AuthorizerId,
  }));
}

describe.each(Object.entries(CONFIGS))('API Gateway routes (%s)', (_name, config) => {
  let ledger: SynthesizedLedger;

  beforeAll(() => {
    ledger = synthLedger(config.context);
  }, SYNTH_HOOK_TIMEOUT_MS);

  it('are the served route set, method by method, each with its authorization', () => {
    const deployed = Object.fromEntries(
      deployedRoutes(ledger.stateless).map((r) => [r.key, r.authorization]),
    );
    const served = Object.fromEntries(
      ROUTE_LIST.map((spec) => [routeKey(spec), spec.public ? 'NONE' : config.authorization]),
    );
    expect(deployed).toEqual(served);
    expect(deployedRoutes(ledger.stateless)).toHaveLength(ROUTE_LIST.length);
  });

  it('puts every principal route behind the one configured authorizer, and no public one', () => {
    const routes = deployedRoutes(ledger.stateless);
    const authorizer =
      config.authorization === 'JWT'
        ? { Ref: onlyLogicalId(ledger.stateless, 'AWS::ApiGatewayV2::Authorizer') }
        : undefined;
    for (const route of routes) {
      const expected = publicKeys.includes(route.key) ? undefined : authorizer;
      expect(route.authorizerId, route.key).toEqual(expected);
    }
  });

  it("throttles each public route on its own, and acknowledges cdk-nag with its spec's reason", () => {
    const stage = Object.values(propertiesOf(ledger.stateless, 'AWS::ApiGatewayV2::Stage'))[0];
    expect(Object.keys((stage?.RouteSettings as object) ?? {}).sort()).toEqual(
      [...publicKeys].sort(),
    );
    const api = ledger.stacks.stateless.httpApi.api;
    for (const spec of ROUTE_LIST) {
      const route = api.node.tryFindChild(`${spec.method}${spec.path.replace(/\//g, '--')}`);
      expect(route, routeKey(spec)).toBeDefined();
      const acknowledged = route?.node.metadata
        .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((entry) => Object.values(entry.data as Record<string, string>));
      const reason = spec.public ? [spec.public.reason] : [];
      expect(acknowledged, routeKey(spec)).toEqual(reason);
    }
  });
});
