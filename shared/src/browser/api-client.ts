/**
 * The browser's calls to the Dropsite API, for the dashboard and the site's islands alike: same-origin
 * cookies, JSON both ways, and one reading of the API's error envelope (`{ success: false, error }`).
 * No zod here: an island's bundle must stay small, so each caller checks the reply's shape itself.
 */

/**
 * A call that failed: the server's message and status, or status 0 when it was never answered, and
 * the envelope's `code` as sent (null without one). Not checked here: the dashboard reads it with
 * the catalogue's ZErrorCodeSchema, so a code it does not know is no code.
 */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string | null;
  constructor(message: string, status: number, code: string | null = null) {
    super(message);
    this.name = 'ApiRequestError';
    this.status = status;
    this.code = code;
  }
}

/** The `error` text of the API's error envelope, or null when the JSON is something else. */
export function readErrorEnvelope(json: unknown): string | null {
  return json && typeof json === 'object' && 'error' in json && typeof json.error === 'string' ? json.error : null;
}

/** The `code` of the API's error envelope, or null when there is none. */
function readErrorCode(json: unknown): string | null {
  return json && typeof json === 'object' && 'code' in json && typeof json.code === 'string' ? json.code : null;
}

/** What sends the request: fetch, or a wrapper that orders a page's calls. */
export type TSendRequest = (path: string, init: RequestInit) => Promise<Response>;

export interface TApiCall {
  method?: string;
  /** Sent as JSON; a call without one has no body. */
  body?: unknown;
}

/**
 * Makes one API call and answers the reply's JSON (null for an empty or non-JSON body). Throws
 * `ApiRequestError`: 'No connection' (status 0) when no answer came, else the envelope's message
 * (or 'Request failed (status)') when the server refused. Nothing is retried here.
 */
export async function callApi(path: string, call: TApiCall = {}, send: TSendRequest = (p, init) => fetch(p, init)): Promise<unknown> {
  const hasBody = call.body !== undefined;
  let res: Response;
  try {
    res = await send(path, {
      method: call.method ?? 'GET',
      credentials: 'same-origin',
      headers: hasBody ? { Accept: 'application/json', 'Content-Type': 'application/json' } : { Accept: 'application/json' },
      body: hasBody ? JSON.stringify(call.body) : undefined,
    });
  } catch {
    throw new ApiRequestError('No connection', 0);
  }
  const text = await res.text().catch(() => '');
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) throw new ApiRequestError(readErrorEnvelope(json) ?? `Request failed (${res.status})`, res.status, readErrorCode(json));
  return json;
}
