/**
 * Prometheus metrics (prom-client), one registry per runtime: requests by route and status, bytes
 * received and sent, rate-limit refusals, open upload sessions, the build queue's depth and wait,
 * build time by stage, derivation cache hits, build outcomes, and (for a serving process) the
 * process's own CPU, memory, garbage collection and event-loop delay.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** What the gauges read when scraped: queue counts and open upload sessions, from the runtime. */
export interface TMetricSources {
  queueCounts(): Promise<{ waiting: number; active: number; failed: number; completed: number }>;
  openUploadSessions(): Promise<number>;
}

export interface TMetricsOptions {
  /** Also collect the process's CPU, memory, GC and event-loop delay (a server or builder process; not every test runtime). */
  processMetrics: boolean;
}

export type TBuildStage = 'derive' | 'render' | 'store' | 'total';
export type TBuildOutcome = 'succeeded' | 'superseded' | 'retried' | 'failed';

export interface TMetrics {
  readonly registry: Registry;
  /** One finished HTTP request: its route pattern (never the raw path), method, status, duration and bytes. */
  observeRequest(route: string, method: string, status: number, seconds: number, receivedBytes: number, sentBytes: number): void;
  observeBuildWait(seconds: number): void;
  observeBuildStage(stage: TBuildStage, seconds: number): void;
  countBuild(outcome: TBuildOutcome): void;
  countDerivations(hits: number, misses: number): void;
  /** Where the gauges read from; set once the runtime has its database and queue. */
  setSources(sources: TMetricSources): void;
  /** The exposition text and its content type, for a scrape. */
  render(): Promise<{ contentType: string; body: string }>;
}

const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];
const BUILD_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

export function createMetrics(options: TMetricsOptions): TMetrics {
  const registry = new Registry();
  const registers = [registry];
  if (options.processMetrics) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  let sources: TMetricSources | undefined;

  const counter = <T extends string>(name: string, help: string, labelNames: readonly T[]) => new Counter<T>({ name, help, labelNames, registers });
  const histogram = <T extends string>(name: string, help: string, buckets: number[], labelNames: readonly T[]) => new Histogram<T>({ name, help, labelNames, buckets, registers });

  const requestDuration = histogram(
    'dropsite_http_request_duration_seconds',
    'Time from the request line to the last byte of the response, by route pattern, method and status.',
    LATENCY_BUCKETS,
    ['route', 'method', 'status'],
  );
  const receivedBytes = counter('dropsite_http_received_bytes_total', 'Request bytes received (uploads and other bodies), by route pattern.', ['route']);
  const sentBytes = counter('dropsite_http_sent_bytes_total', 'Response bytes sent (pages, files, previews), by route pattern.', ['route']);
  const refusals = counter('dropsite_rate_limit_refusals_total', 'Requests refused by a rate limit (answered 429), by route pattern.', ['route']);
  new Gauge({
    name: 'dropsite_upload_sessions_open',
    help: 'Resumable upload sessions that are neither completed nor abandoned.',
    registers,
    async collect() {
      if (sources) this.set(await sources.openUploadSessions());
    },
  });
  new Gauge({
    name: 'dropsite_build_queue_jobs',
    help: 'Build jobs on the queue by state (waiting, active, failed, completed).',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      if (!sources) return;
      const counts = await sources.queueCounts();
      for (const [state, count] of Object.entries(counts)) this.set({ state }, count);
    },
  });
  const buildWait = histogram('dropsite_build_queue_wait_seconds', 'Time a build job waited on the queue before a builder took it (retries included).', BUILD_BUCKETS, []);
  const buildStage = histogram(
    'dropsite_build_duration_seconds',
    'Build time by stage: derive (thumbnails, previews), render (the page), store (writing it), total.',
    BUILD_BUCKETS,
    ['stage'],
  );
  const builds = counter(
    'dropsite_builds_total',
    'Build attempts by outcome: succeeded, superseded (a newer version was queued), retried (failed, will run again), failed (for good).',
    ['outcome'],
  );
  const derivations = counter('dropsite_derivations_total', 'Files a build needed derived data for: hit (found in the derivation cache) or miss (derived).', ['result']);

  // The hottest path: one child per (route, method, status), looked up by one string instead of prom-client hashing a label object per request.
  type TRequestSeries = { duration: { observe(v: number): void }; received: { inc(v: number): void }; sent: { inc(v: number): void }; refusals: { inc(): void } };
  const series = new Map<string, TRequestSeries>();
  const seriesOf = (route: string, method: string, status: number): TRequestSeries => {
    const key = `${status} ${method} ${route}`;
    let found = series.get(key);
    if (!found) {
      found = {
        duration: requestDuration.labels(route, method, String(status)),
        received: receivedBytes.labels(route),
        sent: sentBytes.labels(route),
        refusals: refusals.labels(route),
      };
      series.set(key, found);
    }
    return found;
  };

  return {
    registry,
    observeRequest(route, method, status, seconds, received, sent) {
      const s = seriesOf(route, method, status);
      s.duration.observe(seconds);
      if (received > 0) s.received.inc(received);
      if (sent > 0) s.sent.inc(sent);
      if (status === 429) s.refusals.inc();
    },
    observeBuildWait: (seconds) => buildWait.observe(Math.max(0, seconds)),
    observeBuildStage: (stage, seconds) => buildStage.labels(stage).observe(Math.max(0, seconds)),
    countBuild: (outcome) => builds.labels(outcome).inc(),
    countDerivations(hits, misses) {
      if (hits > 0) derivations.labels('hit').inc(hits);
      if (misses > 0) derivations.labels('miss').inc(misses);
    },
    setSources(next) {
      sources = next;
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
