/**
 * Plain HTTP against the local stack, as curl sends it: status, headers, raw text and parsed JSON.
 * The export tests compare bytes and raw bodies (replays, downloads), so they skip the typed client.
 */
export interface Call {
  principal?: string;
  key?: string;
  body?: unknown;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  json: Record<string, unknown>;
}

/** A tiny HTTP client for the stack's API, like curl with the local stack's headers. */
export function apiClient(base: string) {
  return async (method: string, path: string, call: Call = {}): Promise<ApiResponse> => {
    const headers: Record<string, string> = {};
    if (call.principal) headers['X-Principal-Id'] = call.principal;
    if (call.key) headers['Idempotency-Key'] = call.key;
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      json: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
    };
  };
}
