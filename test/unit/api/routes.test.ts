import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../functions/api/openapi';
import { silentLog } from '../../../functions/domain/shared/log';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { httpEvent } from '../../../kit/http-event';
import { testConfig } from '../../support/config';

mockClient(DynamoDBClient);
const app = composeHttpHandler({
  dynamo: new DynamoDBClient({ region: 'eu-west-1' }),
  config: testConfig(),
  callbackSecrets: staticCallbackSecrets('{}'),
  log: silentLog,
});
const ID = '66666666-6666-4666-8666-666666666666';

it('serves every operation the OpenAPI document publishes, and no other', async () => {
  const doc = buildOpenApiDocument({ idempotencyRetentionSeconds: 1, inboxRetentionSeconds: 1 });
  const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
  );
  expect(documented).toHaveLength(48);
  for (const operation of documented) {
    const [method = '', template = ''] = operation.split(' ');
    const path = template.replace(/\{[^}]+\}/g, ID);
    const res = await app(httpEvent(method, path, { principal: 'p' }));
    expect(res.body, operation).not.toContain('No such route');
  }
  const undocumented = await app(httpEvent('DELETE', `/v1/accounts/${ID}`, { principal: 'p' }));
  expect(JSON.parse(undocumented.body).detail).toBe('No such route.');
});
