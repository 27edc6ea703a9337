/** Queues builds and runs them: the glue between the queue, the database and the site builder. */
import type { SiteBuilder } from '@dropsite/builder';
import type { TBuildsDeps } from './builds.deps.ts';
import { newId } from '../db/ids.ts';
import { AppError } from '../http/app-error.ts';
import { UnrecoverableBuildError, type TBuildProcessor, type TBuildProgress } from '../queue/build-queue.ts';
import { findSiteById, saveFileMetadata, setSiteStatus } from '../site-records/site-records.repository.ts';
import { buildInputOf } from './build-input.ts';
import { syncPublicPage } from '../edge/public-page.ts';
import { refreshUsageSoon } from '../billing/usage.service.ts';
import { currentRequestId, runInRequestContext } from '../observability/request-context.ts';
import { insertBuild, markBuildFailed, markBuildRunning, markBuildSucceeded, updateBuildProgress } from './builds.repository.ts';

/**
 * How long a build runs before its progress is written: a page rebuild (most builds) ends well within
 * it and writes no progress row at all, only its start and its end; a build deriving files shows its
 * stage from then on, as each one changes.
 */
export const PROGRESS_DELAY_MS = 250;

/**
 * Passes a build's progress reports to `write` only once the build has run PROGRESS_DELAY_MS (the
 * latest one then, the later ones as they come), one at a time and in order. `close` stops it and
 * waits for a write under way. A failed write is logged, never fatal, as the builder treats reports.
 */
function deferProgress(write: (r: TBuildProgress) => Promise<void>, log: TBuildsDeps['log']): { report: (r: TBuildProgress) => Promise<void>; close: () => Promise<void> } {
  let latest: TBuildProgress | undefined;
  let due = false;
  let closed = false;
  let chain = Promise.resolve();
  const send = () => {
    const r = latest;
    if (r === undefined || closed) return;
    latest = undefined;
    chain = chain.then(() => (closed ? undefined : write(r))).catch((err: unknown) => log.warn({ err }, 'build progress not recorded'));
  };
  const timer = setTimeout(() => {
    due = true;
    send();
  }, PROGRESS_DELAY_MS);
  timer.unref();
  return {
    report: async (r) => {
      latest = r;
      if (due) send();
    },
    close: async () => {
      closed = true;
      clearTimeout(timer);
      await chain;
    },
  };
}

/** Records a build for this site version (once) and puts it on the queue. */
export async function enqueueSiteBuild(deps: TBuildsDeps, siteId: string, version: number): Promise<string> {
  const build = await insertBuild(deps.db, { id: newId(), siteId, version, now: deps.clock.now() });
  try {
    // The request that asked for it (a publish, an edit) travels with the job into the builder's log lines.
    const requestId = currentRequestId();
    const job = { projectId: siteId, buildId: build.id, version, enqueuedAt: deps.clock.now(), ...(requestId === undefined ? {} : { requestId }) };
    await deps.queue.enqueue(job, { attempts: deps.config.buildAttempts });
  } catch (err) {
    throw new AppError('service_unavailable', 'Publishing is temporarily unavailable. Please try again in a minute.', { cause: err, headers: { 'Retry-After': '60' } });
  }
  return build.id;
}

/**
 * The job processor. Idempotent: a retried or duplicated job renders the same site,
 * and a job for an older version than the site's current one is skipped (the newest wins).
 */
export function createBuildProcessor(deps: Pick<TBuildsDeps, 'db' | 'clock' | 'log' | 'config' | 'storage' | 'metrics'>, builder: Pick<SiteBuilder, 'buildSite'>): TBuildProcessor {
  const process = processBuild(deps, builder);
  // Builds of one site run one after the other in this process: two edits in quick succession queue
  // two versions, and the older build, had it run beside the newer one, could write its page last.
  // Waiting, the older one then finds itself superseded, or finishes before the newer one starts.
  const running = new Map<string, Promise<void>>();
  return (job, reportProgress) => {
    // Every log line of the build, the builder's included, names the request that queued it.
    const run = () => (job.requestId === undefined ? process(job, reportProgress) : runInRequestContext(job.requestId, () => process(job, reportProgress)));
    const before = running.get(job.projectId);
    const current = before === undefined ? run() : before.then(run, run);
    running.set(job.projectId, current);
    const forget = () => {
      if (running.get(job.projectId) === current) running.delete(job.projectId);
    };
    current.then(forget, forget);
    return current;
  };
}

function processBuild(deps: Pick<TBuildsDeps, 'db' | 'clock' | 'log' | 'config' | 'storage' | 'metrics'>, builder: Pick<SiteBuilder, 'buildSite'>): TBuildProcessor {
  return async (job, reportProgress) => {
    const { db, clock, log, metrics } = deps;
    const site = await findSiteById(db, job.projectId);
    if (!site || site.deleted_at !== null) {
      metrics.countBuild('failed');
      throw new UnrecoverableBuildError(`Project ${job.projectId} no longer exists`);
    }
    if (site.version > job.version) {
      await markBuildSucceeded(db, job.buildId, clock.now());
      metrics.countBuild('superseded');
      log.info({ projectId: job.projectId, version: job.version }, 'build superseded by a newer version');
      return;
    }
    const attempt = await markBuildRunning(db, job.buildId, clock.now());
    const waitedMs = job.enqueuedAt === undefined ? undefined : clock.now() - job.enqueuedAt;
    if (waitedMs !== undefined && attempt === 1) metrics.observeBuildWait(waitedMs / 1000);
    log.info({ projectId: job.projectId, buildId: job.buildId, version: job.version, attempt, waitedMs }, 'build started');
    try {
      // The row read above: an edit since then bumps the version, and that version's build supersedes this one.
      const input = await buildInputOf(db, site);
      let lastStage = '';
      // Stages carry counters ('Processing files (3/7)'); the row is written when the stage itself changes.
      const stageName = (stage: string) => stage.replace(/\s*\(\d+\/\d+\)\s*$/, '');
      const progress = deferProgress(async (r) => {
        // Progress is written when the stage changes, not per percent, to keep builds cheap; the
        // finished build's row (100 %) is written once, as it succeeds.
        if (stageName(r.stage) !== lastStage && r.progress < 100) {
          lastStage = stageName(r.stage);
          await updateBuildProgress(db, job.buildId, Math.round(r.progress), r.stage);
        }
        await reportProgress(r);
      }, log);
      let result: Awaited<ReturnType<typeof builder.buildSite>>;
      try {
        result = await builder.buildSite(input, progress.report);
      } finally {
        // No progress row may land after the build's final one.
        await progress.close();
      }
      // Saved whenever a row differs from what the build derived, not only on cache misses:
      // a retry (or a second site with the same bytes) finds the work cached but the row empty.
      const known = new Map(input.files.map((f) => [f.id, f.metadata ? JSON.stringify(f.metadata) : '']));
      for (const [fileId, metadata] of Object.entries(result.derived)) {
        const json = JSON.stringify(metadata);
        if (known.get(fileId) !== json) await saveFileMetadata(db, fileId, json);
      }
      await markBuildSucceeded(db, job.buildId, clock.now());
      await setSiteStatus(db, job.projectId, 'live', clock.now());
      // The edge's copy of the page, when the site is public now (removed otherwise).
      await syncPublicPage(deps, job.projectId, { version: input.site.version, page: result.page });
      // What the build derived (thumbnails, display copies, PDFs) counts toward the owner's storage.
      refreshUsageSoon(deps, site.workspace_id);
      metrics.countBuild('succeeded');
      metrics.observeBuildStage('derive', result.timings.deriveMs / 1000);
      metrics.observeBuildStage('render', result.timings.renderMs / 1000);
      metrics.observeBuildStage('store', result.timings.storeMs / 1000);
      metrics.observeBuildStage('total', (result.timings.deriveMs + result.timings.renderMs + result.timings.storeMs) / 1000);
      metrics.countDerivations(input.files.length - result.derivedCount, result.derivedCount);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const isFinal = err instanceof UnrecoverableBuildError || attempt >= deps.config.buildAttempts;
      log.warn({ err, projectId: job.projectId, buildId: job.buildId, attempt, isFinal }, 'build failed');
      metrics.countBuild(isFinal ? 'failed' : 'retried');
      if (isFinal) {
        await markBuildFailed(db, job.buildId, message.slice(0, 2000), clock.now());
        if (site.status !== 'live') await setSiteStatus(db, job.projectId, 'failed', clock.now());
      }
      throw err;
    }
  };
}
