/**
 * The page's calls in order: the server issues the visitor cookie with the page's first API call,
 * so the others wait for it and share that visitor id.
 */
type TPageGlobals = { dropsiteFirstCall?: Promise<void> };

/**
 * The page carries no visitor cookie (a cache may keep it): the server issues one with the page's
 * first API call. Calls made while that first call is under way wait for it, so they all go out
 * with its cookie instead of each getting a new visitor id. The view beacon (an inline script)
 * may already have made the first call.
 */
export async function fetchInOrder(path: string, init: RequestInit): Promise<Response> {
  const page = globalThis as TPageGlobals;
  const first = page.dropsiteFirstCall;
  if (first) {
    await first;
    return fetch(path, init);
  }
  const call = fetch(path, init);
  page.dropsiteFirstCall = call.then(
    () => undefined,
    () => undefined,
  );
  return call;
}

/** The analytics switch's view of one file (the lightbox or a viewer opened it): counted once per visitor per window by the server; a failure is dropped. */
export function countFileView(projectId: string, fileId: string): void {
  if (typeof location === 'undefined' || !/^https?:$/.test(location.protocol) || location.pathname.startsWith('/api/')) return;
  fetchInOrder('/api/analytics/view', {
    method: 'POST',
    keepalive: true,
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ projectId, fileId }),
  }).then(
    // Read to the end: a response left unread keeps the request open.
    (response) => response.arrayBuffer().then(noop, noop),
    noop,
  );
}

function noop(): void {}
