import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../functions/api/openapi';
import { PROBLEMS, toProblem } from '../../../functions/api/problems';
import { type ErrorCode, NotFoundError } from '../../../functions/domain/shared/errors';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { httpEvent } from '../../../kit/http-event';
import { testConfig } from '../../support/config';
import { recordingLog } from '../../support/fakes/log';

/**
 * A problem's `type` resolves to the documentation of its code, served by the API itself
 * (docs/contract.md §3): `/v1/problems/<code>`, relative to the API's base URL, public.
 */
const app = composeHttpHandler({
  dynamo: new DynamoDBClient({ region: 'eu-west-1' }),
  config: testConfig(),
  callbackSecrets: staticCallbackSecrets('{}'),
  log: recordingLog(),
});
const codes = Object.keys(PROBLEMS) as ErrorCode[];

describe('problem type URIs', () => {
  it('are /v1/problems/<code>, on no foreign domain', () => {
    const { type } = JSON.parse(toProblem(new NotFoundError()).body);
    expect(type).toBe('/v1/problems/not_found');
  });

  it.each(codes)('%s: its type answers a page on its status, title and meaning', async (code) => {
    const { type } = JSON.parse(toProblem(Object.assign(new NotFoundError(), { code })).body);

    const res = await app(httpEvent('GET', type));

    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain(`<code>${code}</code>`);
    expect(res.body).toContain(`${PROBLEMS[code].status} ${PROBLEMS[code].title}`);
    expect(res.body).toContain('/v1/openapi.json');
  });

  it('answers 404 problem+json for a code that does not exist', async () => {
    const res = await app(httpEvent('GET', '/v1/problems/no_such_code'));
    expect(res.statusCode).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'not_found' });
  });

  it('are what the OpenAPI document says they are', () => {
    const doc = buildOpenApiDocument({ idempotencyRetentionSeconds: 1, inboxRetentionSeconds: 1 });
    expect(doc.info.description).toContain('/v1/problems/<code>');
    expect(doc.paths['/v1/problems/{code}']?.get).toMatchObject({ security: [] });
  });
});
