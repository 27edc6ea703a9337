/** The month a usage row counts API requests for: 'YYYY-MM', UTC. */
export function usagePeriodOf(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}
