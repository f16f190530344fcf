import { type ErrorCode, NotFoundError } from '../../domain/shared/errors';
import { buildOpenApiDocument, type PublishedRetention } from '../openapi';
import { PROBLEMS } from '../problems';
import { rawJson } from '../respond';
import type { RouteHandlers } from '../router';
import { ROUTE_LIST } from '../routes';
import { problemPage } from './problem-page';
import type { DOCUMENT_ROUTES } from './spec';

export function documentHandlers(
  retention: PublishedRetention,
): RouteHandlers<typeof DOCUMENT_ROUTES> {
  // Built on first request, not at cold start: converting the schemas costs init time that most
  // containers never get back.
  let openApi: string | undefined;
  const pages = new Map<string, string>();
  return {
    getOpenApi: async () => {
      openApi ??= JSON.stringify(buildOpenApiDocument(retention));
      return rawJson(200, openApi);
    },
    getProblemType: async ({ pathParameters }) => {
      const code = pathParameters.code ?? '';
      if (!Object.hasOwn(PROBLEMS, code)) {
        throw new NotFoundError(`No problem type is named "${code.slice(0, 64)}".`);
      }
      const page = pages.get(code) ?? problemPage(code as ErrorCode, ROUTE_LIST);
      pages.set(code, page);
      return {
        statusCode: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'max-age=3600' },
        body: page,
      };
    },
  };
}
