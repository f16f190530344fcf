import { NotFoundError } from '../../domain/shared/errors';
import { PROBLEMS } from '../problems';
import { rawJson } from '../respond';
import type { RouteHandlers } from '../router';
import { type PublishedRetention, publishedDocuments } from './published';
import type { DOCUMENT_ROUTES } from './spec';

export function documentHandlers(
  retention: PublishedRetention,
  file?: URL,
): RouteHandlers<typeof DOCUMENT_ROUTES> {
  // Read on the first request, from the generated file (published.ts), never at cold start.
  const documents = publishedDocuments(retention, file);
  return {
    getOpenApi: async () => rawJson(200, (await documents()).openapi),
    getProblemType: async ({ pathParameters }) => {
      const code = pathParameters.code ?? '';
      if (!Object.hasOwn(PROBLEMS, code)) {
        throw new NotFoundError(`No problem type is named "${code.slice(0, 64)}".`);
      }
      const page = (await documents()).problemPages[code];
      if (page === undefined) throw new Error(`the published documents have no page for ${code}`);
      return {
        statusCode: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'max-age=3600' },
        body: page,
      };
    },
  };
}
