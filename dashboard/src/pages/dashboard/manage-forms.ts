/** Pure helpers of the owner's settings forms: labels, dates in the browser's own time, and what changed. */
import { SITE_PASSWORD_LIMITS, type TManagedProject, type TProjectUpdate, type TSiteLook, type TTemplateId } from '@dropsite/shared';

/** The look a site's settings form starts from. */
export function lookOfProject(project: Pick<TManagedProject, 'style' | 'colorMode' | 'heroLayout' | 'visitorModeToggle'>): TSiteLook {
  return { style: project.style, colorMode: project.colorMode, heroLayout: project.heroLayout, visitorModeToggle: project.visitorModeToggle };
}

/** Only the template and look fields the owner changed; empty when nothing changed. */
export function lookUpdate(
  project: Pick<TManagedProject, 'template' | 'style' | 'colorMode' | 'heroLayout' | 'visitorModeToggle'>,
  template: TTemplateId,
  look: TSiteLook,
): TProjectUpdate {
  const update: TProjectUpdate = {};
  if (template !== project.template) update.template = template;
  if (look.style !== project.style) update.style = look.style;
  if (look.colorMode !== project.colorMode) update.colorMode = look.colorMode;
  if (look.heroLayout !== project.heroLayout) update.heroLayout = look.heroLayout;
  if (look.visitorModeToggle !== project.visitorModeToggle) update.visitorModeToggle = look.visitorModeToggle;
  return update;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as the value of a `datetime-local` input, in the browser's time zone. */
export function toDateTimeLocal(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (the browser's time zone) as an ISO instant, or null when empty or unreadable. */
export function fromDateTimeLocal(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export interface TDetailsForm {
  title: string;
  description: string;
  authorName: string;
}

/** Only the fields the owner changed (trimmed as the server stores them); empty when nothing changed. */
export function detailsUpdate(project: Pick<TManagedProject, 'title' | 'description' | 'authorName'>, form: TDetailsForm): TProjectUpdate {
  const update: TProjectUpdate = {};
  if (form.title.trim() !== project.title) update.title = form.title.trim();
  if (form.description.trim() !== project.description) update.description = form.description.trim();
  if (form.authorName.trim() !== project.authorName) update.authorName = form.authorName.trim();
  return update;
}

/** What the build line says: the stage while it runs, then whether the change is live. */
export function describeBuild(build: { state: string; progress: number; stage: string }): string {
  if (build.state === 'succeeded') return 'Your changes are live.';
  if (build.state === 'failed') return 'This update could not be built. Your site still shows the previous version.';
  return `Updating your site: ${build.stage || 'Queued'} · ${Math.round(build.progress)}%`;
}

/** Whether a new site password is long enough for the server (the minimum ZSitePasswordSchema applies). */
export function isSitePasswordLongEnough(password: string): boolean {
  return password.length >= SITE_PASSWORD_LIMITS.minLength;
}
