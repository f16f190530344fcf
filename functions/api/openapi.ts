import * as z from 'zod';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../domain/idempotency/key';
import type { ErrorCode } from '../domain/shared/errors';
import { Problem } from '../schemas/shared';
import { addExamples } from './document/examples';
import { PROBLEM_DESCRIPTIONS } from './document/problem-descriptions';
import { type PublishedRetention, retentionInfo } from './document/published';
import { routeDoc } from './document/route-docs';
import { PROBLEM_CONTENT_TYPE, PROBLEMS } from './problems';
import { ROUTE_LIST } from './routes';
import { type ListedRoute, type NamedSchema, problemsOf } from './spec';

export type { PublishedRetention };

type JsonSchema = Record<string, unknown>;

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io });
  return rest;
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const IDEMPOTENCY_KEY_HEADER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  description:
    `Bare token or RFC 8941 string, 1–${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII. ` +
    'Scoped to (principal, operation, key).',
  // Two more for the quotes of the RFC 8941 form.
  schema: {
    type: 'string',
    minLength: 1,
    maxLength: MAX_IDEMPOTENCY_KEY_LENGTH + 2,
    example: 'order-42-credit',
  },
};

const REPLAYED_HEADER = {
  'Idempotent-Replayed': {
    description: 'Present and `true` when this is the replay of the first response.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const RETRY_AFTER_HEADER = {
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 1 },
  },
};

/**
 * What API Gateway answers by itself never reaches the service, so it is not problem+json
 * (docs/contract.md §3); clients must not expect a `code` on those.
 */
export const GATEWAY_ANSWERS_NOTE =
  'Errors the service answers are application/problem+json. Answers API Gateway gives by ' +
  'itself before the service runs are not: 401/403 from the JWT or IAM authorizer, 429 when ' +
  'throttled, 413 for a request over its payload limit, and its own 404/5xx ' +
  '(a body such as {"message":"Unauthorized"}); treat those by status alone.';

/** Where a problem's `type` leads (docs/contract.md §3). */
export const PROBLEM_TYPES_NOTE =
  "Each problem's `type` is `/v1/problems/<code>`, relative to this API's base URL: GET it " +
  '(no credentials) for the documentation of that code.';

/**
 * How a deployed API authenticates: a JWT authorizer reads a bearer token (principal: its `sub`);
 * an IAM deployment (the default) takes SigV4-signed requests (principal: the caller's ARN).
 */
export const DEPLOYED_SECURITY_SCHEMES = {
  jwt: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'Deployments with a JWT authorizer (context jwtIssuer/jwtAudience): the principal is the token `sub`.',
  },
  sigv4: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    'x-amazon-apigateway-authtype': 'awsSigv4',
    description:
      'IAM deployments (the default): every request signed with AWS Signature Version 4, service execute-api; the principal is the caller ARN (an assumed role: its role ARN).',
  },
} as const;

/** The components of the document, each name bound to one schema. */
class Components {
  private readonly schemas = new Map<string, { source: z.ZodType; json: JsonSchema }>();

  ref(named: NamedSchema, io: 'input' | 'output') {
    const known = this.schemas.get(named.name);
    if (known && known.source !== named.schema) {
      throw new Error(`two schemas are published as ${named.name}`);
    }
    if (!known)
      this.schemas.set(named.name, { source: named.schema, json: jsonSchema(named.schema, io) });
    return ref(named.name);
  }

  toJSON(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.schemas].map(([name, { json }]) => [name, json]));
  }
}

/** Parameters from a zod object: one per property, `required` as the schema says. */
function fields(schema: z.ZodObject | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const { properties = {}, required = [] } = jsonSchema(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.includes(name),
    schema: property,
  }));
}

function parameters(spec: ListedRoute) {
  return [
    ...fields(spec.params, 'path'),
    ...(spec.idempotency ? [IDEMPOTENCY_KEY_HEADER] : []),
    ...fields(spec.query, 'query'),
    ...(spec.headers ?? []).map(({ name, description }) => ({
      name,
      in: 'header',
      // Header sets that are alternatives (the callbacks' two signatures): none is required.
      required: false,
      description,
      schema: { type: 'string' },
    })),
  ];
}

/**
 * The error responses of a route, rendered from the problem table: one response per status,
 * naming each code it stands for (`x-problem-codes` for tools).
 */
export function errorResponses(codes: readonly ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  const ordered = (Object.keys(PROBLEMS) as ErrorCode[]).filter((code) => codes.includes(code));
  for (const code of ordered) {
    const status = PROBLEMS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const statuses = [...byStatus.keys()].sort((a, b) => a - b);
  return Object.fromEntries(
    statuses.map((status) => {
      const group = byStatus.get(status) ?? [];
      const retry = group.some((code) => PROBLEMS[code].retryAfterSeconds !== undefined);
      return [
        String(status),
        {
          description: group.map((code) => `${code}: ${PROBLEMS[code].title}`).join('; '),
          'x-problem-codes': group,
          ...(retry ? { headers: RETRY_AFTER_HEADER } : {}),
          content: {
            [PROBLEM_CONTENT_TYPE]: { schema: ref('Problem'), example: problemExample(group) },
          },
        },
      ];
    }),
  );
}

/** What /docs shows for an error status: its first code as the service would answer it. */
function problemExample([code = 'internal']: readonly ErrorCode[]) {
  const { status, title } = PROBLEMS[code];
  const description = PROBLEM_DESCRIPTIONS[code];
  const detail = `${description.charAt(0).toUpperCase()}${description.slice(1)}.`;
  return { type: `/v1/problems/${code}`, title, status, detail, code };
}

function operation(spec: ListedRoute, components: Components) {
  const { status } = spec.response;
  const { summary, description, response: responseDescription } = routeDoc(spec.operationId);
  const params = parameters(spec);
  return {
    operationId: spec.operationId,
    summary,
    ...(description ? { description } : {}),
    tags: [spec.tag],
    ...(spec.public ? { security: [] } : {}),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: components.ref(spec.body, 'input') } },
          },
        }
      : {}),
    responses: {
      [String(status)]: {
        description: spec.idempotency
          ? `${responseDescription} (or its replay)`
          : responseDescription,
        ...(spec.idempotency ? { headers: REPLAYED_HEADER } : {}),
        ...responseContent(spec, components),
      },
      ...errorResponses(problemsOf(spec)),
    },
  };
}

/** A 204 has no content; a raw route its media type; any other route JSON. */
function responseContent(spec: ListedRoute, components: Components) {
  const { status, body } = spec.response;
  if (status === 204) return {};
  return {
    content: spec.response.mediaType
      ? { [spec.response.mediaType]: { schema: { type: 'string' } } }
      : {
          'application/json': {
            schema: body ? components.ref(body, 'output') : { type: 'object' },
          },
        },
  };
}

/**
 * The OpenAPI 3.1 document, derived from the route specs (routes.ts). Schemas are generated
 * from the same zod schemas that validate requests, error responses from the problem table,
 * and the retention values come from the running configuration, so the published contract and
 * the enforced behaviour cannot drift apart.
 */
export function buildOpenApiDocument(retention: PublishedRetention) {
  const components = new Components();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of ROUTE_LIST) {
    const op = operation(spec, components);
    for (const param of op.parameters ?? []) addExamples(param.schema, '', param.name);
    paths[spec.path] = { ...paths[spec.path], [spec.method.toLowerCase()]: op };
  }
  const schemas = { ...components.toJSON(), Problem: jsonSchema(Problem, 'output') };
  for (const [name, schema] of Object.entries(schemas)) addExamples(schema, name);
  return {
    openapi: '3.1.0',
    info: {
      title: 'idempotent-ledger',
      version: '1.0.0',
      description:
        'Exactly-once money movements: every POST is guarded by an Idempotency-Key. ' +
        'The full contract (codes, idempotency rules, events, callbacks) is docs/contract.md ' +
        "in the service's repository. " +
        GATEWAY_ANSWERS_NOTE +
        ' ' +
        PROBLEM_TYPES_NOTE,
      ...retentionInfo(retention),
    },
    // The stage URL is known only after deployment (the function cannot name its own API
    // without a cycle): relative, so a client resolves it against where it fetched the document.
    servers: [{ url: '/', description: 'the stage that serves this document' }],
    // Either scheme, as the deployment configures its authorizer (docs/deployment.md).
    security: [{ jwt: [] }, { sigv4: [] }],
    paths,
    components: {
      securitySchemes: DEPLOYED_SECURITY_SCHEMES,
      schemas,
    },
  };
}
