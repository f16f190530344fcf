import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { buildOpenApiDocument } from '../../../functions/api/openapi';

/**
 * What /docs shows is believable (issue 49): every request, response, problem and parameter
 * example that Swagger UI renders comes from a stated value (never from a type, bound or
 * pattern), validates against its schema, and stays in plausible ranges: amounts and counts
 * within 10^9, dates within 5 years of 2026, ids UUIDs.
 */
type Schema = Record<string, unknown>;
type Operation = {
  parameters?: { name: string; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema; example?: unknown }> }>;
};

const doc = buildOpenApiDocument({ idempotencyRetentionSeconds: 86400, inboxRetentionSeconds: 60 });
const components = doc.components.schemas as Record<string, Schema>;
const defs = JSON.parse(JSON.stringify(components).replaceAll('#/components/schemas/', '#/$defs/'));

const resolve = (s: Schema): Schema =>
  typeof s.$ref === 'string' ? resolve(components[s.$ref.split('/').at(-1) ?? ''] ?? {}) : s;

/**
 * The value Swagger UI shows for a schema, in its order of preference (example, examples,
 * default, const, enum, the first branch of a union, the properties); where it would make
 * one up from the type, the field's path is recorded in `madeUp`.
 */
function sample(schema0: Schema | boolean, path: string, madeUp: string[], depth = 0): unknown {
  // A boolean schema (`items: false` after a tuple's prefixItems) admits nothing to show.
  if (typeof schema0 !== 'object') return undefined;
  const s = resolve(schema0);
  if (Array.isArray(s.prefixItems)) {
    return (s.prefixItems as Schema[]).map((item, i) =>
      sample(item, `${path}[${i}]`, madeUp, depth + 1),
    );
  }
  if ('example' in s) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('default' in s) return s.default;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  const union = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (union?.[0]) return sample(union[0], path, madeUp, depth + 1);
  const type = ([] as unknown[]).concat(s.type)[0];
  if (type === 'object' || s.properties) {
    const entries = Object.entries((s.properties ?? {}) as Record<string, Schema>);
    return Object.fromEntries(
      entries.map(([k, v]) => [k, sample(v, `${path}.${k}`, madeUp, depth + 1)]),
    );
  }
  if (type === 'array') return [sample((s.items ?? {}) as Schema, `${path}[]`, madeUp, depth + 1)];
  if (type === 'boolean' || type === 'null') return type === 'boolean' ? true : null;
  madeUp.push(path);
  return undefined;
}

interface Shown {
  readonly where: string;
  readonly schema: Schema;
  readonly value: unknown;
  readonly madeUp: string[];
}

/** Every example /docs shows: parameters, request bodies, and JSON answers of each operation. */
function everyExample(): Shown[] {
  const shown: Shown[] = [];
  const add = (where: string, schema: Schema, stated?: unknown) => {
    const madeUp: string[] = [];
    const value = stated !== undefined ? stated : sample(schema, where, madeUp);
    shown.push({ where, schema, value, madeUp });
  };
  for (const [path, ops] of Object.entries(
    doc.paths as Record<string, Record<string, Operation>>,
  )) {
    for (const [method, op] of Object.entries(ops)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const p of op.parameters ?? []) add(`${at} parameter ${p.name}`, p.schema);
      const body = op.requestBody?.content['application/json'];
      if (body) add(`${at} request`, body.schema);
      for (const [status, response] of Object.entries(op.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (type.endsWith('json')) add(`${at} ${status}`, media.schema, media.example);
        }
      }
    }
  }
  return shown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T/;

/** Why a value is implausible, for each leaf that is (empty when all are believable). */
const NOT_UUIDS = new Set(['paymentId', 'eventId']);

function implausible(value: unknown, path: string): string[] {
  if (typeof value === 'number') {
    return Math.abs(value) <= 1e9 ? [] : [`${path}: ${value} is beyond 10^9`];
  }
  if (typeof value === 'string' && ISO_DATE.test(value)) {
    const year = new Date(value).getUTCFullYear();
    return Math.abs(year - 2026) <= 5 ? [] : [`${path}: ${value} is not within 5 years of 2026`];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => implausible(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) => {
    // Not UUIDs by design: a caller's paymentId, a journal event's `<accountId>:<sequence>`.
    const isId = /^(id|.+Id)$/.test(key) && !NOT_UUIDS.has(key) && typeof v === 'string';
    const idProblem = isId && !UUID.test(v) ? [`${path}.${key}: ${v} is not a UUID`] : [];
    return [...idProblem, ...implausible(v, `${path}.${key}`)];
  });
}

const examples = everyExample();

describe('the OpenAPI examples /docs shows', () => {
  it('covers every operation', () => {
    expect(examples.length).toBeGreaterThan(100);
  });

  it('makes up no value from a type, bound or pattern', () => {
    expect(examples.flatMap((e) => e.madeUp)).toEqual([]);
  });

  it('validates each example against its schema', () => {
    const validators = new Map<string, z.ZodType>();
    const validator = (schema: Schema) => {
      const text = JSON.stringify(schema).replaceAll('#/components/schemas/', '#/$defs/');
      const known = validators.get(text) ?? z.fromJSONSchema({ ...JSON.parse(text), $defs: defs });
      validators.set(text, known);
      return known;
    };
    const invalid = examples.flatMap(({ where, schema, value }) => {
      const result = validator(schema).safeParse(value);
      return result.success ? [] : [`${where}: ${JSON.stringify(result.error.issues[0])}`];
    });
    expect(invalid).toEqual([]);
  });

  it('keeps amounts within 10^9, dates within 5 years of 2026 and ids UUIDs', () => {
    expect(examples.flatMap(({ where, value }) => implausible(value, where))).toEqual([]);
  });
});
