/**
 * The per-route error table of docs/contract.md §5, rendered from the OpenAPI document's error
 * responses (which the route specs and the problem table produce). `npm run generate:client`
 * writes it between the markers; test/unit/docs/contract-doc.test.ts fails when it is stale.
 */
export const ROUTE_ERRORS_BEGIN = '<!-- route-errors:begin (npm run generate:client) -->';
export const ROUTE_ERRORS_END = '<!-- route-errors:end -->';

interface Operation {
  readonly responses: Record<string, { readonly 'x-problem-codes'?: readonly string[] }>;
}

/** One row per route: each error status with the codes it stands for. */
export function renderRouteErrors(paths: Record<string, Record<string, unknown>>): string {
  const rows = Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => {
      const errors = Object.entries((operation as Operation).responses)
        .filter(([, response]) => response['x-problem-codes'])
        .map(([status, response]) => {
          const codes = (response['x-problem-codes'] ?? []).map((code) => `\`${code}\``);
          return `${status} ${codes.join(', ')}`;
        });
      return `| \`${method.toUpperCase()} ${path}\` | ${errors.join('; ')} |`;
    }),
  );
  return ['| route | may answer |', '| --- | --- |', ...rows].join('\n');
}

/** The contract's text with the table between the markers replaced. */
export function withRouteErrors(contract: string, table: string): string {
  const start = contract.indexOf(ROUTE_ERRORS_BEGIN);
  const end = contract.indexOf(ROUTE_ERRORS_END);
  if (start < 0 || end < start) throw new Error('docs/contract.md lacks the route-errors markers');
  return `${contract.slice(0, start + ROUTE_ERRORS_BEGIN.length)}\n${table}\n${contract.slice(end)}`;
}
