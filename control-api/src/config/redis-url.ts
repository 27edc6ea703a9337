/** A Redis URL as error messages and logs may show it: without its password. */
export function describeRedisUrl(redisUrl: string): string {
  try {
    const url = new URL(redisUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(unparseable Redis URL)';
  }
}
