import { NotFoundError } from '../domain/shared/errors';
import type { HttpEvent, HttpResult } from './types';

export interface RouteRequest {
  readonly event: HttpEvent;
  readonly pathParameters: Record<string, string>;
}

export interface Route {
  /** The route template, e.g. `POST /v1/accounts/{accountId}` (not the operation id: see domain/idempotency/operations.ts). */
  readonly key: string;
  readonly handle: (request: RouteRequest) => Promise<HttpResult>;
}

interface CompiledRoute extends Route {
  readonly method: string;
  readonly pattern: RegExp;
  readonly names: string[];
}

function compile(route: Route): CompiledRoute {
  const [method = '', template = ''] = route.key.split(' ');
  const names: string[] = [];
  const source = template
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param?.[1]) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1]);
      return '([^/]+)';
    })
    .join('/');
  return { ...route, method, pattern: new RegExp(`^${source}$`), names };
}

/** Matches method and path against route templates; the path is matched as sent. */
export function createRouter(routes: readonly Route[]) {
  const compiled = routes.map(compile);
  return (event: HttpEvent): Promise<HttpResult> => {
    const method = event.requestContext.http.method.toUpperCase();
    const path = event.rawPath;
    for (const route of compiled) {
      if (route.method !== method) continue;
      const match = route.pattern.exec(path);
      if (!match) continue;
      const pathParameters: Record<string, string> = {};
      route.names.forEach((name, i) => {
        pathParameters[name] = safeDecode(match[i + 1] ?? '');
      });
      return route.handle({ event, pathParameters });
    }
    throw new NotFoundError('No such route.');
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
