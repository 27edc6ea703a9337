/**
 * A request's path as a log line may hold it: a secret carried in the path itself (an invitation's
 * token, in its page's address and in its API calls) is replaced by `[token]`, so a log read by an
 * operator, or leaked, admits no one. Tokens in query strings never reach the log (only the path is
 * logged).
 */
const TOKEN_IN_PATH = /^(\/invite\/|\/api\/invitations\/)[^/]+/;

export function loggedPath(path: string): string {
  return path.replace(TOKEN_IN_PATH, '$1[token]');
}
