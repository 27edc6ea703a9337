/**
 * What the text box holds per file, kept for the page's lifetime: closing the comments panel,
 * moving to another image or closing the viewer must not lose a draft, a 'not sent' comment or
 * the outcome of a send still on its way. The panel restores from here when it mounts again.
 */
import type { TCommentDraft } from './comments-state.ts';

const EMPTY_DRAFT: TCommentDraft = { text: '', replyTo: null, status: 'editing' };

export interface TDraftMemory {
  read(key: string): TCommentDraft;
  save(key: string, draft: TCommentDraft): void;
  /**
   * Follows a send to its end whoever is still on screen: success empties the stored draft and
   * calls `onSent`; failure stores the draft as 'not sent'. Resolves with whether it was sent.
   */
  track(key: string, draft: TCommentDraft, send: Promise<unknown>, onSent: () => void): Promise<boolean>;
  /** The send still running for a key, if any. */
  pending(key: string): Promise<boolean> | undefined;
}

export function createDraftMemory(): TDraftMemory {
  const drafts = new Map<string, TCommentDraft>();
  const sends = new Map<string, Promise<boolean>>();
  return {
    read: (key) => drafts.get(key) ?? EMPTY_DRAFT,
    save(key, draft) {
      if (draft.text === '' && draft.replyTo === null && draft.status === 'editing') drafts.delete(key);
      else drafts.set(key, draft);
    },
    track(key, draft, send, onSent) {
      drafts.set(key, { ...draft, status: 'sending' });
      const outcome = send.then(
        () => {
          drafts.delete(key);
          onSent();
          return true;
        },
        () => {
          drafts.set(key, { ...draft, status: 'not-sent' });
          return false;
        },
      );
      const tracked = outcome.finally(() => {
        if (sends.get(key) === tracked) sends.delete(key);
      });
      sends.set(key, tracked);
      return tracked;
    },
    pending: (key) => sends.get(key),
  };
}

/** The page's one memory (module state, like the visitor store). */
export const draftMemory = createDraftMemory();
