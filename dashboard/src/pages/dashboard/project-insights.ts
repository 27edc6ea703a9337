/** What the project detail view works out from the details it was sent (spec 2 'Project detail view'). */
import type { TCreatorProject, TDailyPoint, TDetailsCommentReply, TProjectDetails, TProjectFileDetails } from '@dropsite/shared';

/** Spec 9: 'top engaged files 5'. */
export const TOP_FILES_SHOWN = 5;

/** A commenter by name, else 'User' and the last 4 characters of their email (spec). */
export function commenterName(entry: Pick<TDetailsCommentReply, 'userName' | 'userEmail'>): string {
  const name = entry.userName.trim();
  if (name) return name;
  const email = entry.userEmail.trim();
  return email ? `User ${email.slice(-4)}` : 'User';
}

export interface TFileEngagement {
  file: TProjectFileDetails;
  favorites: number;
  comments: number;
  views: number;
  /** Favourites + comments + views: what ranks the top files. */
  score: number;
}

export function fileEngagement(file: TProjectFileDetails): TFileEngagement {
  // The totals count everything on the file; the lists beside them carry only the newest entries.
  const favorites = file.totals.favorites;
  const comments = file.totals.comments;
  const views = file.analytics.views;
  return { file, favorites, comments, views, score: favorites + comments + views };
}

/** The most engaged files, by favourites + comments + views; files nobody touched are left out. */
export function topEngagedFiles(files: readonly TProjectFileDetails[], limit = TOP_FILES_SHOWN): TFileEngagement[] {
  return files
    .map(fileEngagement)
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.file.name.localeCompare(b.file.name))
    .slice(0, limit);
}

/** Favourites, comments and approvals per file (the product's 'interactions'), one decimal. */
export function averageInteractionsPerFile(project: Pick<TProjectDetails, 'totals'>): number {
  const { totalFiles, totalFavorites, totalComments, totalApprovals } = project.totals;
  if (totalFiles === 0) return 0;
  const interactions = totalFavorites + totalComments + totalApprovals.approved + totalApprovals.rejected;
  return Math.round((interactions / totalFiles) * 10) / 10;
}

/** Favourites per view, as a percentage with one decimal; 0 before the first view. */
export function viewsToFavoritesConversion(project: Pick<TProjectDetails, 'totals'>): number {
  const { totalViews, totalFavorites } = project.totals;
  if (totalViews === 0) return 0;
  return Math.round((totalFavorites / totalViews) * 1000) / 10;
}

/** uPlot's columns: UTC midnight of each day in seconds, then views, unique visitors and downloads. */
export function toChartColumns(days: readonly TDailyPoint[]): [number[], number[], number[], number[]] {
  return [days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000), days.map((day) => day.views), days.map((day) => day.uniqueVisitors), days.map((day) => day.downloads)];
}

const dateFormat = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', year: 'numeric' });
const dayFormat = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** 'Nov 26, 2026' in the viewer's time zone; an unreadable date shows as nothing rather than 'Invalid Date'. */
export function formatDate(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? '' : dateFormat.format(time);
}

/** A chart day ('YYYY-MM-DD', UTC) as 'Nov 26'. */
export function formatChartDay(date: string): string {
  return dayFormat.format(Date.parse(`${date}T00:00:00Z`));
}

/** The spoken reading of one chart day, for the keyboard cursor's live region. */
export function describeDay(day: TDailyPoint): string {
  return `${formatChartDay(day.date)}: ${plural(day.views, 'view')}, ${plural(day.uniqueVisitors, 'unique visitor')}, ${plural(day.downloads, 'download')}`;
}

export function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en')} ${noun}${count === 1 ? '' : 's'}`;
}

/** An account this young is on its first visit: no 'Welcome back' for it. */
export const NEW_ACCOUNT_MS = 60 * 60_000;

/** 'Welcome, Ada' for an account made within the last hour (it has not been here before), else 'Welcome back, Ada'. */
export function greetingFor(name: string, createdAt: string, now: number): string {
  const created = Date.parse(createdAt);
  const isNew = Number.isFinite(created) && now - created < NEW_ACCOUNT_MS;
  return isNew ? `Welcome, ${name}` : `Welcome back, ${name}`;
}

export type TApprovalTone = 'approved' | 'rejected' | 'pending';

/**
 * A file's approval state as the Files tab shows it: 'Not reviewed' until any client decided,
 * 'Approved' or 'Changes requested' for one decision, and the counts of each when several clients
 * decided ('2 approved · 1 changes requested'). A request for changes sets the tone: it needs the
 * creator's attention.
 */
export function approvalStateOf(approvals: Pick<TProjectFileDetails['totals']['approvals'], 'approved' | 'rejected'>): { label: string; tone: TApprovalTone } {
  const { approved, rejected } = approvals;
  if (approved + rejected === 0) return { label: 'Not reviewed', tone: 'pending' };
  const tone = rejected > 0 ? 'rejected' : 'approved';
  if (approved + rejected === 1) return { label: approved === 1 ? 'Approved' : 'Changes requested', tone };
  const parts = [approved > 0 ? `${approved.toLocaleString('en')} approved` : '', rejected > 0 ? `${rejected.toLocaleString('en')} changes requested` : ''];
  return { label: parts.filter(Boolean).join(' · '), tone };
}

const DAY_MS = 86_400_000;

/** A card's expiry badge: 'Expires in less than a day', 'Expires in 1 day', 'Expires in 3 days' (whole days left), 'Expired'; null without an expiry. */
export function expiryLabel(project: Pick<TCreatorProject, 'expires_at'>, now: number): string | null {
  if (project.expires_at === null) return null;
  const at = Date.parse(project.expires_at);
  if (Number.isNaN(at)) return null;
  const left = at - now;
  if (left <= 0) return 'Expired';
  const days = Math.floor(left / DAY_MS);
  if (days === 0) return 'Expires in less than a day';
  return `Expires in ${plural(days, 'day')}`;
}
