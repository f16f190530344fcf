import { describe, expect, it } from 'vitest';
import { generateClientTypes } from '../../../../../client/generate';
import { buildOpenApiDocument } from '../../../../../functions/api/openapi';
import { ROUTE_LIST } from '../../../../../functions/api/routes';
import { needsPrincipal } from '../../../../../functions/api/spec';
import { httpEvent } from '../../../../../kit/http-event';
import {
  LOCAL_SECURITY_SCHEME,
  localOpenApiDocument,
  withLocalDocument,
} from '../../../../../local/services/http/local-document';

/**
 * docs/contract.md §2: only the local stack's document names X-Principal-Id (an API-key scheme
 * that /docs fills in); the function's document, and so every deployment and the typed
 * client, never does, and says JWT or SigV4.
 */
const deployed = buildOpenApiDocument({ idempotencyRetentionSeconds: 1, inboxRetentionSeconds: 1 });

type Operation = { security?: unknown[] };
const operations = (doc: { paths: Record<string, Record<string, unknown>> }) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, op]) => ({
      key: `${method.toUpperCase()} ${path}`,
      op,
    })),
  );

describe('the OpenAPI document, deployed and local', () => {
  it('deployed: JWT or SigV4, never X-Principal-Id (the typed client neither)', async () => {
    expect(JSON.stringify(deployed)).not.toMatch(/x-principal-id/i);
    expect(await generateClientTypes()).not.toMatch(/x-principal-id/i);
    expect(deployed.security).toEqual([{ jwt: [] }, { sigv4: [] }]);
    expect(deployed.components.securitySchemes.sigv4.description).toMatch(
      /^IAM deployments.*Signature Version 4/,
    );
  });

  it('local: every route behind a principal sends X-Principal-Id; the public ones nothing', () => {
    const local = localOpenApiDocument(deployed) as unknown as typeof deployed;

    expect(local.security).toEqual([{ [LOCAL_SECURITY_SCHEME]: [] }]);
    expect(local.components.securitySchemes).toEqual({
      [LOCAL_SECURITY_SCHEME]: expect.objectContaining({
        type: 'apiKey',
        in: 'header',
        name: 'X-Principal-Id',
      }),
    });
    const publicKeys = ROUTE_LIST.filter((r) => !needsPrincipal(r)).map(
      (r) => `${r.method} ${r.path}`,
    );
    for (const { key, op } of operations(local)) {
      expect(op.security, key).toEqual(publicKeys.includes(key) ? [] : undefined);
    }
  });

  it('is rewritten by the local stack on GET /v1/openapi.json only', async () => {
    const handler = withLocalDocument(async (event) => ({
      statusCode: 200,
      headers: {},
      body: event.rawPath === '/v1/openapi.json' ? JSON.stringify(deployed) : '{"a":1}',
    }));

    const document = JSON.parse((await handler(httpEvent('GET', '/v1/openapi.json'))).body ?? '');
    const other = await handler(httpEvent('GET', '/v1/health'));

    expect(Object.keys(document.components.securitySchemes)).toEqual([LOCAL_SECURITY_SCHEME]);
    expect(other.body).toBe('{"a":1}');
  });
});
