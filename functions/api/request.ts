import type * as z from 'zod';
import type { Json } from '../domain/idempotency/fingerprint';
import {
  type FieldError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../domain/shared/errors';
import { illFormedPath, protoKeyPath } from '../domain/shared/unicode';
import type { HttpEvent } from './types';

export const MAX_BODY_BYTES = 64 * 1024;

export function header(event: HttpEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}

function isJsonMediaType(contentType: string): boolean {
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

/** The exact bytes received (what a signature covers), after the size check (413). */
export function readRawBody(event: HttpEvent): Buffer {
  const raw = event.body
    ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8')
    : Buffer.alloc(0);
  if (raw.byteLength > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
  return raw;
}

/** 415 unless the declared media type is JSON. */
export function requireJsonMediaType(event: HttpEvent): void {
  const contentType = header(event, 'content-type');
  if (contentType === undefined || !isJsonMediaType(contentType)) {
    throw new UnsupportedMediaTypeError();
  }
}

/** The body as parsed JSON, after the size (413), media type (415) and syntax (400) checks. */
export function readJsonBody(event: HttpEvent): Json {
  const raw = readRawBody(event);
  const contentType = header(event, 'content-type');
  if (contentType !== undefined && !isJsonMediaType(contentType)) {
    throw new UnsupportedMediaTypeError();
  }
  if (raw.byteLength === 0) {
    throw new ValidationError('A JSON request body is required.', [
      { path: 'body', message: 'body is required' },
    ]);
  }
  if (contentType === undefined) throw new UnsupportedMediaTypeError();
  let body: Json;
  try {
    body = JSON.parse(raw.toString('utf8')) as Json;
  } catch (error) {
    throw new ValidationError(
      'The request body is not valid JSON.',
      [{ path: 'body', message: 'not valid JSON' }],
      error,
    );
  }
  requireWellFormedUnicode(body);
  return body;
}

/**
 * 400 validation_failed when any string or key holds a lone surrogate (docs/contract.md §3), or
 * an object has a key `__proto__` (it could not be stored as sent).
 */
export function requireWellFormedUnicode(body: unknown): void {
  const path = illFormedPath(body);
  if (path !== undefined) {
    throw new ValidationError('The request body is not well-formed Unicode.', [
      {
        path: ['body', path].filter(Boolean).join('.'),
        message: 'must not contain lone surrogates',
      },
    ]);
  }
  const proto = protoKeyPath(body);
  if (proto !== undefined) {
    throw new ValidationError('The request body failed validation.', [
      { path: ['body', proto].join('.'), message: 'a key named __proto__ is not accepted' },
    ]);
  }
}

/** Validates against a schema; unknown fields and every failing path are reported. */
export function parseWith<T extends z.ZodType>(
  schema: T,
  value: unknown,
  where: string,
): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ValidationError(
    `The request ${where || 'body'} failed validation.`,
    fieldErrors(result.error, where),
  );
}

/** Every failing path of a schema check, prefixed with where the value came from. */
export function fieldErrors(error: z.ZodError, where: string): FieldError[] {
  return error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].filter(Boolean).join('.'),
    message: issue.message,
  }));
}
