/**
 * The anonymous creator's loop, mounted once by the app: learns the session from the server,
 * polls engagement updates every 60 s into the bell, raises the expiration warning (checked
 * hourly), shows the email modal when a trigger fires, and the teaser card.
 *
 * Other parts of the app talk to it with window events: the wizard dispatches
 * 'dropsite:published' ({ slug, url, projectId? }) after a publish, and any page may dispatch
 * 'dropsite:email-prompt' ({ trigger, projectId? }) to ask for a variant of the modal.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ENGAGEMENT_UPDATES_POLL_MS, RETURN_VISIT_PROMPT_DELAY_MS, type TAnonymousProject, type TEmailTrigger } from '@dropsite/shared';
import { getSessionStore, useSession } from '../auth/session-store.ts';
import { showBrowserNotifications } from './browser-notifications.ts';
import { DASHBOARD_PATH, EMAIL_PROMPT_EVENT, PUBLISHED_EVENT, getCreatorEngagementStore, getNotificationCenter, useCreatorEngagement } from './creator-engagement.ts';
import { EmailModal } from './email-modal.tsx';
import { canShowEmailPrompt, chooseAfterPublishTrigger, chooseTrigger, countViews, createEmailPromptMemory, isReturnVisit, type TPromptContext } from './email-prompt.ts';
import { fetchEngagementUpdates } from './engagement-api.ts';
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

export function EngagementLoop() {
  const store = getCreatorEngagementStore();
  const center = getNotificationCenter();
  const creator = useCreatorEngagement();
  // A signed-in creator has given their address and has the dashboard: no email prompt, no teaser.
  const account = useSession();
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
    }),
    [store, memory],
  );

  const openPrompt = useCallback(
    (trigger: TEmailTrigger, projectId: string | null) => {
      if (promptOpen.current) return;
      promptOpen.current = true;
      // Recorded as shown when it shows, so a reload does not ask the same thing again.
      memory.markShown(trigger);
      setPrompt({ trigger, projectId });
    },
    [memory],
  );

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
    if (!sessionId) return;
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
  }, [sessionId, center, store]);

  // The expiration warning: checked now and hourly while the page is open.
  const sessionExpiresAt = creator.session?.expiresAt ?? null;
  useEffect(() => {
    if (!sessionId || sessionExpiresAt === null) return;
    const check = () => center.raiseExpirationWarning(sessionId, sessionExpiresAt);
    check();
    const timer = setInterval(check, EXPIRY_CHECK_MS);
    return () => clearInterval(timer);
  }, [sessionId, sessionExpiresAt, center]);

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
  useEffect(() => {
    if (creator.status !== 'ready' || account.status === 'loading' || promptOpen.current) return;
    const trigger = chooseTrigger(
      { summary: creator.summary, totalViews: creator.projects ? countViews(creator.projects) : null, isReturnVisit: returnVisit.current },
      promptContext(),
    );
    if (trigger) openPrompt(trigger, newestProjectId(creator.projects));
  }, [creator, account.status, promptContext, openPrompt]);

  // After a publish, and when a page asks.
  useEffect(() => {
    const timers = new Set<ReturnType<typeof setTimeout>>();
    let isListening = true;
    const onPublished = async (event: Event) => {
      const detail = (await loadSchemas()).ZPublishedDetailSchema.safeParse((event as CustomEvent<unknown>).detail);
      if (!isListening) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        // The upload may have just created the session.
        void store.refresh({ withSession: true }).then(() => {
          const trigger = chooseAfterPublishTrigger(promptContext());
          if (trigger) openPrompt(trigger, (detail.success ? detail.data.projectId : undefined) ?? newestProjectId(store.getSnapshot().projects));
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

  const showTeaser = account.status !== 'signed-in' && isTeaserVisible({ isDismissed: isTeaserDismissed, hasSession: creator.session !== null, summary: creator.summary });

  return (
    <>
      {showTeaser && creator.summary && <TeaserCard summary={creator.summary} projects={creator.projects} onDismiss={dismissTeaser} />}
      {prompt && (
        <EmailModal
          key={prompt.trigger}
          trigger={prompt.trigger}
          projectId={prompt.projectId}
          sessionId={sessionId}
          onCollected={(record) => memory.storeCollectedEmail(record)}
          onClose={() => {
            promptOpen.current = false;
            setPrompt(null);
          }}
        />
      )}
    </>
  );
}
