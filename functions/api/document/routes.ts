import { buildOpenApiDocument, type PublishedRetention } from '../openapi';
import { rawJson } from '../respond';
import type { RouteHandlers } from '../router';
import type { DOCUMENT_ROUTES } from './spec';

export function documentHandlers(
  retention: PublishedRetention,
): RouteHandlers<typeof DOCUMENT_ROUTES> {
  // Built on first request, not at cold start: converting the schemas costs init time that most
  // containers never get back.
  let openApi: string | undefined;
  return {
    getOpenApi: async () => {
      openApi ??= JSON.stringify(buildOpenApiDocument(retention));
      return rawJson(200, openApi);
    },
  };
}
