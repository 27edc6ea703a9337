/**
 * The figures of `npm run stats`: sites by state, files and their bytes, creators, and the views of
 * the last days from the daily rollups the dashboard's analytics read (never the raw events).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { dayOf, SITE_SCOPE } from '../analytics/analytics.repository.ts';
import { SITE_STATES, siteStateAt, type TSiteState } from './site-state.ts';
import { DAY_MS } from '../clock.ts';

type TDb = Kysely<Database>;

export interface TDayTraffic {
  /** The UTC day, YYYY-MM-DD. */
  date: string;
  views: number;
  downloads: number;
}

export interface TSiteStats {
  /** Every site row, and how many are in each state. */
  sites: { total: number } & Record<TSiteState, number>;
  files: {
    count: number;
    /** Bytes of the originals of every stored file (sites waiting for removal included). */
    originalBytes: number;
    /** Bytes derived from them (thumbnails, display copies, PDFs), as each account's last usage count found them; anonymous creators' are not counted. */
    derivedBytes: number;
  };
  creators: {
    accounts: number;
    /** Accounts whose email address was proven. */
    verifiedAccounts: number;
    /** Anonymous creators ever recorded, and those still unclaimed and unexpired. */
    anonymousSessions: number;
    activeAnonymousSessions: number;
  };
  /** Page views and downloads of every site per UTC day, oldest first, the days without traffic included. */
  traffic: { days: number; views: number; downloads: number; perDay: TDayTraffic[] };
}

const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The figures at `now`, the traffic of the `days` UTC days up to and including today. */
export async function readSiteStats(db: TDb, options: { now: number; days: number }): Promise<TSiteStats> {
  const { now, days } = options;
  const toDay = dayOf(now);
  const fromDay = toDay - days + 1;
  const [states, files, derived, accounts, anonymous, traffic] = await Promise.all([
    db
      .selectFrom((eb) =>
        eb
          .selectFrom('projects')
          .select((p) => siteStateAt(p, now).as('state'))
          .as('s'),
      )
      .select((eb) => ['s.state', eb.fn.countAll<number>().as('n')])
      .groupBy('s.state')
      .execute(),
    db
      .selectFrom('files')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.coalesce(eb.fn.sum<number | null>('size'), eb.lit(0)).as('bytes')])
      .executeTakeFirstOrThrow(),
    // Each account's latest usage row (the derived bytes last found carry over into a new month).
    db
      .selectFrom('usage as u')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | null>('u.derived_bytes'), eb.lit(0)).as('bytes'))
      .where('u.period', '=', (eb) =>
        eb
          .selectFrom('usage as latest')
          .select((l) => l.fn.max('latest.period').as('period'))
          .whereRef('latest.workspace_id', '=', 'u.workspace_id'),
      )
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('creators')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.count<number>('email_verified_at').as('verified')])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('anonymous_sessions')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn
          .sum<number | null>(
            eb
              .case()
              .when(eb.and([eb('claimed_by', 'is', null), eb('expires_at', '>', now)]))
              .then(eb.lit(1))
              .else(eb.lit(0))
              .end(),
          )
          .as('active'),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('analytics_daily')
      .select((eb) => ['day', eb.fn.sum<number>('views').as('views'), eb.fn.sum<number>('downloads').as('downloads')])
      .where('scope', '=', SITE_SCOPE)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .groupBy('day')
      .execute(),
  ]);

  const sites = { total: 0, ...Object.fromEntries(SITE_STATES.map((s) => [s, 0])) } as TSiteStats['sites'];
  for (const row of states) {
    const n = Number(row.n);
    sites.total += n;
    sites[row.state] = (sites[row.state] ?? 0) + n;
  }
  const byDay = new Map(traffic.map((r) => [Number(r.day), { views: Number(r.views), downloads: Number(r.downloads) }]));
  const perDay: TDayTraffic[] = [];
  for (let day = fromDay; day <= toDay; day++) perDay.push({ date: isoDay(day), views: byDay.get(day)?.views ?? 0, downloads: byDay.get(day)?.downloads ?? 0 });
  return {
    sites,
    files: { count: Number(files.n), originalBytes: Number(files.bytes), derivedBytes: Number(derived.bytes) },
    creators: {
      accounts: Number(accounts.n),
      verifiedAccounts: Number(accounts.verified),
      anonymousSessions: Number(anonymous.n),
      activeAnonymousSessions: Number(anonymous.active ?? 0),
    },
    traffic: {
      days,
      views: perDay.reduce((sum, d) => sum + d.views, 0),
      downloads: perDay.reduce((sum, d) => sum + d.downloads, 0),
      perDay,
    },
  };
}
