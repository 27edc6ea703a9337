/** Pure helpers of the owner's settings forms: labels, dates in the browser's own time, and what changed. */
import {
  MANAGED_SITE_SETTING_KEYS,
  SITE_PASSWORD_LIMITS,
  SITE_PASSWORD_MESSAGES,
  type TManagedProject,
  type TManagedSiteSettings,
  type TProjectUpdate,
  type TSiteLook,
  type TTemplateId,
} from '@dropsite/shared';
import { notificationRecipientOf } from '../../engagement/notification-recipient.ts';

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

/** Everything the Settings tab edits, as its fields hold it (the site's settings among them); saved together by one button. */
export interface TSettingsForm extends TManagedSiteSettings {
  title: string;
  description: string;
  authorName: string;
  template: TManagedProject['template'];
  /** Style, light or dark, hero layout and the visitors' light/dark button. */
  look: TSiteLook;
  contactInfo: TManagedProject['contactInfo'];
  /** The 'Require a password' switch. */
  isPasswordOn: boolean;
  /** A new password; empty keeps the current one. */
  password: string;
  /** A datetime-local value; empty for no expiry. */
  expiresAt: string;
}

export function settingsFormOf(project: TManagedProject): TSettingsForm {
  return {
    title: project.title,
    description: project.description,
    authorName: project.authorName,
    template: project.template,
    look: lookOfProject(project),
    ...project.settings,
    contactInfo: project.contactInfo,
    isPasswordOn: project.hasPassword,
    password: '',
    expiresAt: toDateTimeLocal(project.expiresAt),
  };
}

const CONTACT_KEYS = ['email', 'website', 'instagram', 'twitter', 'linkedin', 'github'] as const;

/**
 * The one update the Save button sends: only what the owner changed (trimmed as the server stores
 * it), or the first thing to fix. An empty update means nothing changed.
 */
export function settingsUpdate(project: TManagedProject, form: TSettingsForm, now: number): { update: TProjectUpdate } | { error: string } {
  const update: TProjectUpdate = {};
  if (!form.title.trim()) return { error: 'Site Title is required' };
  if (form.title.trim() !== project.title) update.title = form.title.trim();
  if (form.description.trim() !== project.description) update.description = form.description.trim();
  if (form.authorName.trim() !== project.authorName) update.authorName = form.authorName.trim();
  Object.assign(update, lookUpdate(project, form.template, form.look));

  const settings: NonNullable<TProjectUpdate['settings']> = {};
  // Notifications are on only with someone to receive them (the server refuses them on without a recipient),
  // as the switch shows them.
  const switches = { ...form, enableNotifications: form.enableNotifications && notificationRecipientOf(form.notificationEmail, project.accountNotificationEmail).kind !== 'none' };
  for (const key of MANAGED_SITE_SETTING_KEYS) {
    const value = switches[key];
    const sent = typeof value === 'string' ? value.trim() : value;
    if (sent !== project.settings[key]) Object.assign(settings, { [key]: sent });
  }
  if (Object.keys(settings).length > 0) update.settings = settings;

  if (CONTACT_KEYS.some((key) => form.contactInfo[key].trim() !== project.contactInfo[key])) update.contactInfo = form.contactInfo;

  if (!form.isPasswordOn) {
    if (project.hasPassword) update.password = null;
  } else if (form.password !== '' || !project.hasPassword) {
    if (!isSitePasswordLongEnough(form.password)) return { error: SITE_PASSWORD_MESSAGES.tooShort };
    update.password = form.password;
  }

  if (form.expiresAt !== toDateTimeLocal(project.expiresAt)) {
    if (form.expiresAt === '') update.expiresAt = null;
    else {
      const at = fromDateTimeLocal(form.expiresAt);
      if (!at || Date.parse(at) <= now) return { error: 'Expiry date must be in the future' };
      update.expiresAt = at;
    }
  }
  return { update };
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
