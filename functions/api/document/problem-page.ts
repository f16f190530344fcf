import type { ErrorCode } from '../../domain/shared/errors';
import { PROBLEMS } from '../problems';
import { type ListedRoute, problemsOf, routeKey } from '../spec';
import { PROBLEM_DESCRIPTIONS } from './problem-descriptions';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The contract's light markdown (`code`, **strong**) as HTML, after escaping. */
const inline = (text: string) =>
  escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');

/** The page a problem's `type` resolves to: its status, title, meaning and the routes answering it. */
export function problemPage(code: ErrorCode, routes: readonly ListedRoute[]): string {
  const { status, title, retryAfterSeconds } = PROBLEMS[code];
  const description = PROBLEM_DESCRIPTIONS[code];
  const answeredBy = routes.filter((route) => problemsOf(route).includes(code)).map(routeKey);
  const retry =
    retryAfterSeconds === undefined
      ? ''
      : `<p>The response carries <code>Retry-After</code>: retry after that many seconds.</p>\n`;
  const list =
    answeredBy.length === 0
      ? '<p>No HTTP route answers it today.</p>'
      : `<p>Answered by:</p>\n<ul>\n${answeredBy.map((r) => `<li><code>${escapeHtml(r)}</code></li>`).join('\n')}\n</ul>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(`${code}: ${title}`)}</title></head>
<body>
<h1><code>${code}</code></h1>
<p><strong>${status} ${escapeHtml(title)}</strong>: ${inline(description)}.</p>
${retry}<p>The body is <code>application/problem+json</code>: <code>{ type, title, status, detail, code }</code>, with <code>errors: [{ path, message }]</code> when validation failed. Compare <code>code</code> (or <code>type</code>), not <code>detail</code>, which is for people.</p>
${list}
<p>Every route and its errors: <a href="/v1/openapi.json">/v1/openapi.json</a>; the contract: <code>docs/contract.md</code> §3 of the service's repository.</p>
</body>
</html>
`;
}
