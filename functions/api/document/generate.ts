import {
  DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
  DEFAULT_INBOX_RETENTION_SECONDS,
} from '../../contract/retention';
import type { ErrorCode } from '../../domain/shared/errors';
import { buildOpenApiDocument } from '../openapi';
import { PROBLEMS } from '../problems';
import { ROUTE_LIST } from '../routes';
import { problemPage } from './problem-page';
import type { PublishedDocuments } from './published';

/** The document as published with the default retention (a deployment patches its own in). */
export const defaultOpenApiDocument = () =>
  buildOpenApiDocument({
    idempotencyRetentionSeconds: DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
    inboxRetentionSeconds: DEFAULT_INBOX_RETENTION_SECONDS,
  });

/**
 * The content of the published file (published.ts), from the route specs, the zod schemas and
 * the problem table. Only the generator (client/generate.ts) and tests import this module: the
 * HTTP function serves the file.
 */
export function publishedDocumentsText(): string {
  const documents: PublishedDocuments = {
    openapi: defaultOpenApiDocument(),
    problemPages: Object.fromEntries(
      (Object.keys(PROBLEMS) as ErrorCode[]).map((code) => [code, problemPage(code, ROUTE_LIST)]),
    ),
  };
  // One line: a generated file, and the function reads it whole.
  return `${JSON.stringify(documents)}\n`;
}
