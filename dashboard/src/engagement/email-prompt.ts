/**
 * When the email-collection modal shows (spec 4 'Email modal', 2.7): a trigger fired, no email
 * is stored, and that trigger has not been shown this browser session. Pure rules plus the small
 * storage record around them (collected email, shown flags, last visit).
 */
import {
  EMAIL_TRIGGERS,
  HIGH_VIEWS_THRESHOLD,
  RETURN_VISIT_THRESHOLD_MS,
  isValidEmailAddress,
  type TAnonymousProject,
  type TEmailTrigger,
  type TEngagementSummary,
} from '@dropsite/shared';
import type { z } from 'zod';
import { loadedSchemas } from '../schemas/lazy-schemas.ts';
import type { TSchemas } from '../schemas/lazy-schemas.ts';
import type { TAppPageId } from '@dropsite/shared/app-routes';
import { STORAGE_KEYS, readJson, writeJson, type TKeyValueStorage } from './storage-keys.ts';

/** Spec 3 'Email collection record kept locally'. */
export type TCollectedEmailRecord = z.infer<TSchemas['ZCollectedEmailRecordSchema']>;

/** Spec 5: text, '@', text, '.', text, no spaces. Surrounding spaces from a paste are forgiven. */
export function isEmailValid(input: string): boolean {
  return isValidEmailAddress(input.trim());
}

export interface TPromptContext {
  /** The creator has an anonymous session (something of theirs to keep). */
  hasSession: boolean;
  hasEmail: boolean;
  shownThisSession: ReadonlySet<TEmailTrigger>;
  /** The creator closed or skipped a prompt this browser session: none asks again until the next one. */
  isDismissedThisSession: boolean;
}

export function canShowEmailPrompt(trigger: TEmailTrigger, context: TPromptContext): boolean {
  return context.hasSession && !context.hasEmail && !context.isDismissedThisSession && !context.shownThisSession.has(trigger);
}

/**
 * The app's pages whose point is a form of their own (signing in or up, a password, the account,
 * billing): no prompt opens there, neither the email modal nor the teaser.
 */
const FORM_PAGES: ReadonlySet<TAppPageId> = new Set(['sign-in', 'reset-password', 'verify-email', 'undo-email-change', 'account', 'billing']);

export function isPromptPage(page: TAppPageId): boolean {
  return !FORM_PAGES.has(page);
}

/**
 * Whether the creator is in the middle of something a modal would cover: typing in a field, or a
 * dialog already open. The prompt waits until they are done.
 */
export function isCreatorBusy(doc: Pick<Document, 'activeElement' | 'querySelector'>): boolean {
  const active = doc.activeElement;
  if (active && (active.tagName === 'INPUT' || active.tagName === 'TEXTAREA' || active.tagName === 'SELECT' || (active as HTMLElement).isContentEditable)) return true;
  return doc.querySelector('dialog[open]') !== null;
}

/** Spec 4: return_visit fires only if more than 24 hours passed since the last visit. */
export function isReturnVisit(lastVisitAt: number | null, now: number): boolean {
  return lastVisitAt !== null && now - lastVisitAt > RETURN_VISIT_THRESHOLD_MS;
}

/** Views on all of the creator's sites. */
export function countViews(projects: readonly Pick<TAnonymousProject, 'views_count'>[]): number {
  return projects.reduce((sum, p) => sum + p.views_count, 0);
}

/** Spec 4: high_views fires at 10 or more views. */
export function hasHighViews(totalViews: number): boolean {
  return totalViews >= HIGH_VIEWS_THRESHOLD;
}

export interface TTriggerFacts {
  summary: Pick<TEngagementSummary, 'total_interactions'> | null;
  totalViews: number | null;
  isReturnVisit: boolean;
}

/**
 * The one trigger worth a prompt now, most telling first: a visitor engaged, then many views,
 * then the creator came back. Null when none applies or each was already shown.
 */
export function chooseTrigger(facts: TTriggerFacts, context: TPromptContext): TEmailTrigger | null {
  const candidates: TEmailTrigger[] = [];
  if (facts.summary && facts.summary.total_interactions > 0) candidates.push('first_engagement');
  if (facts.totalViews !== null && hasHighViews(facts.totalViews)) candidates.push('high_views');
  if (facts.isReturnVisit) candidates.push('return_visit');
  return candidates.find((t) => canShowEmailPrompt(t, context)) ?? null;
}

/**
 * After a publish (spec 4: 'a return_visit prompt is attempted after 3 seconds'). When that
 * variant was already shown this session, the success-page variant asks instead.
 */
export function chooseAfterPublishTrigger(context: TPromptContext): TEmailTrigger | null {
  if (canShowEmailPrompt('return_visit', context)) return 'return_visit';
  if (canShowEmailPrompt('success_page', context)) return 'success_page';
  return null;
}

// ---- the stored record

export interface TEmailPromptMemory {
  readCollectedEmail(): TCollectedEmailRecord | null;
  storeCollectedEmail(record: TCollectedEmailRecord): void;
  readShown(): Set<TEmailTrigger>;
  markShown(trigger: TEmailTrigger): void;
  readLastVisit(): number | null;
  storeLastVisit(at: number): void;
  /** The creator closed or skipped a prompt (remembered for the browser session). */
  readDismissed(): boolean;
  markDismissed(): void;
}

export function createEmailPromptMemory(local: TKeyValueStorage, session: TKeyValueStorage): TEmailPromptMemory {
  const readShown = () => {
    const value = readJson(session, STORAGE_KEYS.emailModalShown);
    const list = Array.isArray(value) ? value : [];
    return new Set(EMAIL_TRIGGERS.filter((t) => list.includes(t)));
  };
  return {
    readCollectedEmail() {
      const stored = readJson(local, STORAGE_KEYS.collectedEmail);
      if (stored === null) return null;
      // A stored record makes the app load the schemas before its first render (main.tsx); and a prompt
      // needs a session, whose reply loads them too, so the record is always checked when it matters.
      const parsed = loadedSchemas()?.ZCollectedEmailRecordSchema.safeParse(stored);
      return parsed?.success && isEmailValid(parsed.data.email) ? parsed.data : null;
    },
    storeCollectedEmail(record) {
      writeJson(local, STORAGE_KEYS.collectedEmail, record);
    },
    readShown,
    markShown(trigger) {
      writeJson(session, STORAGE_KEYS.emailModalShown, [...readShown().add(trigger)]);
    },
    readLastVisit() {
      const value = readJson(local, STORAGE_KEYS.lastVisit);
      return typeof value === 'number' && Number.isFinite(value) ? value : null;
    },
    storeLastVisit(at) {
      writeJson(local, STORAGE_KEYS.lastVisit, at);
    },
    readDismissed: () => readJson(session, STORAGE_KEYS.emailPromptDismissed) === true,
    markDismissed() {
      writeJson(session, STORAGE_KEYS.emailPromptDismissed, true);
    },
  };
}
