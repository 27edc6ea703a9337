/**
 * The creator's loop, mounted once by the app: learns the session from the server, polls
 * engagement updates every 60 s into the bell (the account's own for a signed-in creator), raises
 * the expiration warning (checked hourly), shows the email modal when a trigger fires, and the
 * teaser card. Prompts ask one at a time and once per page load: none on a page that is a form
 * (sign-in, account, billing), none while the creator types or a dialog is open, none after the
 * creator dismissed one this browser session, none once signed in. The teaser only shows where a
 * page made room for it (an element with `data-engagement-slot`), never over the page.
 *
 * Other parts of the app talk to it with window events: the wizard dispatches
 * 'dropsite:published' ({ slug, url, projectId? }) after a publish, and any page may dispatch
 * 'dropsite:email-prompt' ({ trigger, projectId? }) to ask for a variant of the modal.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { ENGAGEMENT_UPDATES_POLL_MS, RETURN_VISIT_PROMPT_DELAY_MS, type TAnonymousProject, type TEmailTrigger } from '@dropsite/shared';
import { getSessionStore, useSession } from '../auth/session-store.ts';
import { showBrowserNotifications } from './browser-notifications.ts';
import { DASHBOARD_PATH } from '../auth/auth-paths.ts';
import { EMAIL_PROMPT_EVENT, PUBLISHED_EVENT, getCreatorEngagementStore, getNotificationCenter, useCreatorEngagement } from './creator-engagement.ts';
import { EmailModal } from './email-modal.tsx';
import {
  canShowEmailPrompt,
  chooseAfterPublishTrigger,
  chooseTrigger,
  countViews,
  createEmailPromptMemory,
  isCreatorBusy,
  isPromptPage,
  isReturnVisit,
  type TPromptContext,
} from './email-prompt.ts';
import { forgetAnonymousAlerts, refreshAccountAlerts } from './account-alerts.ts';
import { resolveAppPage } from '@dropsite/shared/app-routes';
import { fetchEngagementUpdates } from '../dashboard-api/engagement-api.ts';
import { STORAGE_KEYS, resolveStorage } from './storage-keys.ts';
import { TeaserCard } from './teaser-card.tsx';
import { isTeaserVisible } from './teaser-rules.ts';
import { loadSchemas } from '../schemas/lazy-schemas.ts';
import './engagement.css';

/** Companion spec 4: the anonymous window is checked hourly. */
const EXPIRY_CHECK_MS = 3_600_000;

function newestProjectId(projects: readonly TAnonymousProject[] | null): string | null {
  if (!projects || projects.length === 0) return null;
  return [...projects].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))[0]!.id;
}

/** Where a page made room for the teaser card. */
const TEASER_SLOT_SELECTOR = '[data-engagement-slot]';

export function EngagementLoop() {
  const store = getCreatorEngagementStore();
  const center = getNotificationCenter();
  const creator = useCreatorEngagement();
  // A signed-in creator has given their address and has the dashboard: no email prompt, no teaser.
  const account = useSession();
  const accountId = account.status === 'signed-in' ? account.creator.id : null;
  const isAnonymous = account.status === 'signed-out' || account.status === 'error';
  const isPromptAllowed = useMemo(() => typeof window !== 'undefined' && isPromptPage(resolveAppPage(window.location.pathname)), []);
  // Bumped when the creator leaves a field or a dialog closes: a prompt that waited may ask now.
  const [idleCheck, setIdleCheck] = useState(0);
  const hasPrompted = useRef(false);
  const local = useMemo(() => resolveStorage('local'), []);
  const memory = useMemo(() => createEmailPromptMemory(local, resolveStorage('session')), [local]);
  const [prompt, setPrompt] = useState<{ trigger: TEmailTrigger; projectId: string | null } | null>(null);
  const [isTeaserDismissed, setTeaserDismissed] = useState(() => local.getItem(STORAGE_KEYS.teaserDismissed) === '1');
  const returnVisit = useRef(false);
  const promptOpen = useRef(false);

  const promptContext = useCallback(
    (): TPromptContext => ({
      hasSession: store.getSnapshot().session !== null,
      hasEmail: memory.readCollectedEmail() !== null || getSessionStore().getSnapshot().status === 'signed-in',
      shownThisSession: memory.readShown(),
      isDismissedThisSession: memory.readDismissed(),
    }),
    [store, memory],
  );

  const openPrompt = useCallback(
    (trigger: TEmailTrigger, projectId: string | null) => {
      // One prompt per page load, never on a form page, never over what the creator is doing.
      if (promptOpen.current || hasPrompted.current || !isPromptAllowed || isCreatorBusy(document)) return;
      if (getSessionStore().getSnapshot().status === 'signed-in') return;
      promptOpen.current = true;
      hasPrompted.current = true;
      // Recorded as shown when it shows, so a reload does not ask the same thing again.
      memory.markShown(trigger);
      setPrompt({ trigger, projectId });
    },
    [memory, isPromptAllowed],
  );

  // A prompt that waited for the creator to finish typing or close a dialog asks again then.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const recheck = () => {
      clearTimeout(timer);
      // After the focus has moved on: the event fires before it lands.
      timer = setTimeout(() => setIdleCheck((n) => n + 1), 0);
    };
    document.addEventListener('focusout', recheck);
    document.addEventListener('close', recheck, true);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('focusout', recheck);
      document.removeEventListener('close', recheck, true);
    };
  }, []);

  // The visit itself: was the last one over 24 h ago? Then remember this one.
  const isVisitRecorded = useRef(false);
  useEffect(() => {
    // Once per page load, even when React runs effects twice in development.
    if (!isVisitRecorded.current) {
      isVisitRecorded.current = true;
      returnVisit.current = isReturnVisit(memory.readLastVisit(), Date.now());
      memory.storeLastVisit(Date.now());
    }
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') memory.storeLastVisit(Date.now());
    };
    document.addEventListener('visibilitychange', onVisibility);
    void store.refresh({ withSession: true });
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [store, memory]);

  // Engagement updates every 60 s feed the bell; the summary (teaser, triggers) refreshes with them.
  const sessionId = creator.session?.sessionId ?? null;
  useEffect(() => {
    if (!sessionId || !isAnonymous) return;
    let isCurrent = true;
    const pollUpdates = async () => {
      try {
        const updates = await fetchEngagementUpdates(sessionId, center.getCursor());
        if (isCurrent) center.addUpdates(updates);
      } catch {
        // The next poll asks again; the bell keeps what it has.
      }
    };
    void pollUpdates();
    const timer = setInterval(() => {
      void pollUpdates();
      void store.refresh();
    }, ENGAGEMENT_UPDATES_POLL_MS);
    return () => {
      isCurrent = false;
      clearInterval(timer);
    };
  }, [sessionId, isAnonymous, center, store]);

  // A signed-in creator's bell: the account's own updates, now and every 60 s; this browser's anonymous alerts are forgotten.
  useEffect(() => {
    if (accountId === null) return;
    forgetAnonymousAlerts();
    void refreshAccountAlerts(accountId);
    const timer = setInterval(() => void refreshAccountAlerts(accountId), ENGAGEMENT_UPDATES_POLL_MS);
    const stopNotifying = getNotificationCenter(accountId).onAdded((added) =>
      showBrowserNotifications(added, (item) => {
        getNotificationCenter(accountId).markRead(item.id);
        window.location.assign(DASHBOARD_PATH);
      }),
    );
    return () => {
      clearInterval(timer);
      stopNotifying();
    };
  }, [accountId]);

  // The expiration warning: checked now and hourly while the page is open.
  const sessionExpiresAt = creator.session?.expiresAt ?? null;
  useEffect(() => {
    if (!sessionId || sessionExpiresAt === null || !isAnonymous) return;
    const check = () => center.raiseExpirationWarning(sessionId, sessionExpiresAt);
    check();
    const timer = setInterval(check, EXPIRY_CHECK_MS);
    return () => clearInterval(timer);
  }, [sessionId, sessionExpiresAt, isAnonymous, center]);

  // Alerts this tab added also appear as browser notifications (with permission).
  useEffect(
    () =>
      center.onAdded((added) =>
        showBrowserNotifications(added, (item) => {
          center.markRead(item.id);
          window.location.assign(DASHBOARD_PATH);
        }),
      ),
    [center],
  );

  // Triggers from what the server reports: a first engagement, many views, a return visit.
  const pendingTrigger =
    creator.status === 'ready' && isAnonymous && isPromptAllowed && !hasPrompted.current
      ? chooseTrigger({ summary: creator.summary, totalViews: creator.projects ? countViews(creator.projects) : null, isReturnVisit: returnVisit.current }, promptContext())
      : null;
  useEffect(() => {
    void idleCheck;
    if (pendingTrigger) openPrompt(pendingTrigger, newestProjectId(creator.projects));
  }, [pendingTrigger, creator.projects, idleCheck, openPrompt]);

  // After a publish, and when a page asks.
  useEffect(() => {
    const timers = new Set<ReturnType<typeof setTimeout>>();
    let isListening = true;
    const onPublished = (event: Event) => {
      const raw = (event as CustomEvent<unknown>).detail;
      // The delay counts from the publish itself, whatever loading the schemas takes.
      const timer = setTimeout(() => {
        timers.delete(timer);
        void loadSchemas().then(({ ZPublishedDetailSchema }) => {
          if (!isListening) return;
          const detail = ZPublishedDetailSchema.safeParse(raw);
          // The upload may have just created the session.
          void store.refresh({ withSession: true }).then(() => {
            const trigger = chooseAfterPublishTrigger(promptContext());
            if (trigger) openPrompt(trigger, (detail.success ? detail.data.projectId : undefined) ?? newestProjectId(store.getSnapshot().projects));
          });
        });
      }, RETURN_VISIT_PROMPT_DELAY_MS);
      timers.add(timer);
    };
    const onPromptRequest = async (event: Event) => {
      const request = (await loadSchemas()).ZPromptRequestSchema.safeParse((event as CustomEvent<unknown>).detail);
      if (!isListening || !request.success) return;
      void store.refresh({ withSession: true }).then(() => {
        if (canShowEmailPrompt(request.data.trigger, promptContext())) {
          openPrompt(request.data.trigger, request.data.projectId ?? newestProjectId(store.getSnapshot().projects));
        }
      });
    };
    window.addEventListener(PUBLISHED_EVENT, onPublished);
    window.addEventListener(EMAIL_PROMPT_EVENT, onPromptRequest);
    return () => {
      window.removeEventListener(PUBLISHED_EVENT, onPublished);
      window.removeEventListener(EMAIL_PROMPT_EVENT, onPromptRequest);
      isListening = false;
      for (const timer of timers) clearTimeout(timer);
    };
  }, [store, promptContext, openPrompt]);

  const dismissTeaser = () => {
    setTeaserDismissed(true);
    try {
      local.setItem(STORAGE_KEYS.teaserDismissed, '1');
    } catch {
      // Hidden for this visit at least.
    }
  };

  // One prompt at a time: the teaser stays away while the email prompt asks, is about to, or asked on this page.
  const showTeaser =
    isAnonymous &&
    isPromptAllowed &&
    prompt === null &&
    pendingTrigger === null &&
    !hasPrompted.current &&
    isTeaserVisible({ isDismissed: isTeaserDismissed, hasSession: creator.session !== null, summary: creator.summary });
  const teaserSlot = showTeaser ? document.querySelector(TEASER_SLOT_SELECTOR) : null;

  return (
    <>
      {teaserSlot && creator.summary && createPortal(<TeaserCard summary={creator.summary} onDismiss={dismissTeaser} />, teaserSlot)}
      {prompt && (
        <EmailModal
          key={prompt.trigger}
          trigger={prompt.trigger}
          projectId={prompt.projectId}
          sessionId={sessionId}
          onCollected={(record) => memory.storeCollectedEmail(record)}
          onClose={(wasDismissed) => {
            if (wasDismissed) memory.markDismissed();
            promptOpen.current = false;
            setPrompt(null);
          }}
        />
      )}
    </>
  );
}
