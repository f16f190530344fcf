import { readFile } from 'node:fs/promises';

/** What the API publishes about itself, generated ahead of time (see {@link PUBLISHED_FILE}). */
export interface PublishedDocuments {
  /** The OpenAPI document with the default retention, patched per deployment when served. */
  readonly openapi: { readonly info: Record<string, unknown> } & Record<string, unknown>;
  /** The page of each problem type (`/v1/problems/<code>`), by code. */
  readonly problemPages: Readonly<Record<string, string>>;
}

export interface PublishedRetention {
  readonly idempotencyRetentionSeconds: number;
  readonly inboxRetentionSeconds: number;
}

/**
 * The file the HTTP function serves its documentation from: generated from the route specs,
 * the zod schemas and the problem table by `npm run generate:client` (client/generate.ts; a unit
 * test fails while it is stale), so neither the descriptions nor the JSON Schema conversion ride
 * in the bundle, and nothing is built at cold start. Resolved against this module: in the source
 * tree (tests, `npm start`) the committed file beside it; in the Lambda bundle the copy CDK puts
 * beside `index.mjs` (lib/constructs/http/http-function.ts).
 */
export const PUBLISHED_FILE_NAME = 'api-document.json';
export const PUBLISHED_FILE = new URL(`./${PUBLISHED_FILE_NAME}`, import.meta.url);

/** The retention windows of the running configuration, as the document's `info` states them. */
export const retentionInfo = (retention: PublishedRetention) => ({
  'x-idempotency-retention-seconds': retention.idempotencyRetentionSeconds,
  'x-inbox-retention-seconds': retention.inboxRetentionSeconds,
});

export interface ServedDocuments {
  /** The OpenAPI document as JSON text, with this deployment's retention. */
  readonly openapi: string;
  readonly problemPages: Readonly<Record<string, string>>;
}

/**
 * Reads the file on the first documentation request and keeps it (a failed read is tried
 * again on the next request).
 */
export function publishedDocuments(
  retention: PublishedRetention,
  file: URL = PUBLISHED_FILE,
): () => Promise<ServedDocuments> {
  let loaded: Promise<ServedDocuments> | undefined;
  const load = async (): Promise<ServedDocuments> => {
    const { openapi, problemPages } = JSON.parse(
      await readFile(file, 'utf8'),
    ) as PublishedDocuments;
    const info = { ...openapi.info, ...retentionInfo(retention) };
    return { openapi: JSON.stringify({ ...openapi, info }), problemPages };
  };
  return () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
}
