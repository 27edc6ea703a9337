import { describe, expect, it } from 'vitest';
import { buildThreads, resolveAuthorName, resolveAvatar, toShownComment, type TShownComment } from './comment-model.ts';
import { INITIAL_COMMENTS_STATE, canSubmitDraft, reduceComments, visibleComments, type TCommentsAction, type TCommentsState } from './comments-state.ts';
import { createVisitorStore } from './visitor-store.ts';
import { createDraftMemory } from './draft-memory.ts';
import type { TVisitorEngagement } from './engagement-api.ts';
import {
  COMMENT_LIST_HEIGHT,
  COMMENT_MAX_LENGTH,
  ReplyShapeError,
  VISITOR_NAME_MAX_LENGTH,
  formatVisitorName,
  isCommentTextSendable,
  isVisitorEmailSendable,
  visitorNameProblem,
  readApprovalResponse,
  readCommentsResponse,
  readCreatedComment,
  readEngagementState,
  readFavoriteResponse,
  readVisitorProfileResponse,
} from './reply-readers.ts';
import {
  COMMENT_LIST_HEIGHT_PX,
  COMMENT_MAX_CHARS,
  ZApprovalResponseSchema,
  ZCommentsResponseSchema,
  ZCreateCommentResponseSchema,
  ZEngagementStateResponseSchema,
  ZFavoriteResponseSchema,
  VISITOR_NAME_MAX_CHARS,
  ZVisitorProfileResponseSchema,
  findCommentTextProblem,
  findVisitorNameProblem,
  isValidVisitorEmail,
  visitorDisplayName,
} from '@dropsite/shared';

const comment = (id: string, parentId: string | null, timestamp: number, author = 'Ada'): TShownComment => ({
  id,
  parentId,
  author,
  avatar: 'AD',
  content: `text ${id}`,
  timestamp,
  isOwn: false,
  isCreator: false,
});

const run = (...actions: TCommentsAction[]): TCommentsState => actions.reduce(reduceComments, INITIAL_COMMENTS_STATE);

describe('comment authors and avatars (spec 3 "Comment as shown")', () => {
  it('shows the name, else User and the last four characters of the visitor id', () => {
    expect(resolveAuthorName('  Mara   Lind ', 'session_1700000000_abcd9f2k')).toBe('Mara Lind');
    expect(resolveAuthorName('', 'session_1700000000_abcd9f2k')).toBe('User 9f2k');
    expect(resolveAuthorName('   ', '')).toBe('User');
  });

  it('takes the first two letters of a chosen name as the avatar, else U', () => {
    expect(resolveAvatar('mara lind')).toBe('MA');
    expect(resolveAvatar('Émile')).toBe('ÉM');
    expect(resolveAvatar('User 9f2k')).toBe('U');
    expect(resolveAvatar('')).toBe('U');
    expect(resolveAvatar('🙂🙂')).toBe('U');
  });

  it('keeps the text exactly as written: markup, emoji sequences and right-to-left text are data', () => {
    const text = '<img src=x onerror="alert(1)"> 👩‍👩‍👧 שלום e\u0301';
    const shown = toShownComment({ id: 'c1', parentId: null, userName: '', userKey: 'v-1234', content: text, timestamp: 1, isOwn: false, isCreator: false });
    expect(shown.content).toBe(text);
    expect(shown.author).toBe('User 1234');
    expect(shown.avatar).toBe('U');
  });
});

describe('threads', () => {
  it('orders threads oldest first and puts replies (also replies to replies) under their root', () => {
    const threads = buildThreads([comment('b', null, 20), comment('a', null, 10), comment('a2', 'a', 30), comment('a3', 'a2', 40), comment('orphan', 'gone', 5)]);
    expect(threads.map((t) => t.comment.id)).toEqual(['orphan', 'a', 'b']);
    expect(threads[1]!.replies.map((r) => r.id)).toEqual(['a2', 'a3']);
  });

  it('survives a parent cycle without looping', () => {
    const threads = buildThreads([comment('x', 'y', 1), comment('y', 'x', 2)]);
    expect(threads.length).toBeGreaterThan(0);
  });
});

describe('comments state machine', () => {
  it('loads when opened and shows an error, never sample comments, when the load fails', () => {
    const loading = run({ type: 'load-started' });
    expect(loading.list).toEqual({ status: 'loading', previous: null });
    const failed = reduceComments(loading, { type: 'load-failed' });
    expect(failed.list.status).toBe('error');
    expect(visibleComments(failed.list)).toBeNull();
    const retried = reduceComments(reduceComments(failed, { type: 'load-started' }), { type: 'load-succeeded', comments: [comment('a', null, 1)] });
    expect(visibleComments(retried.list)?.map((c) => c.id)).toEqual(['a']);
  });

  it('keeps the comments on screen while they reload and when a reload fails', () => {
    const loaded = run({ type: 'load-started' }, { type: 'load-succeeded', comments: [comment('a', null, 1)] });
    const reloading = reduceComments(loaded, { type: 'load-started' });
    expect(visibleComments(reloading.list)?.length).toBe(1);
    expect(visibleComments(reduceComments(reloading, { type: 'load-failed' }).list)?.length).toBe(1);
  });

  it('allows submit only for non-blank text and not while sending', () => {
    expect(canSubmitDraft(INITIAL_COMMENTS_STATE.draft)).toBe(false);
    expect(canSubmitDraft(run({ type: 'draft-changed', text: ' \n\t ' }).draft)).toBe(false);
    const typed = run({ type: 'draft-changed', text: ' Love it ' });
    expect(canSubmitDraft(typed.draft)).toBe(true);
    const sending = reduceComments(typed, { type: 'post-started' });
    expect(sending.draft.status).toBe('sending');
    expect(canSubmitDraft(sending.draft)).toBe(false);
    // A second submit while sending is ignored, as is typing.
    expect(reduceComments(sending, { type: 'post-started' })).toBe(sending);
    expect(reduceComments(sending, { type: 'draft-changed', text: 'other' })).toBe(sending);
    // Blank drafts never start a send.
    expect(run({ type: 'draft-changed', text: '  ' }, { type: 'post-started' }).draft.status).toBe('editing');
  });

  it('keeps a failed post in the box marked not sent, and a retry can send it', () => {
    const failed = run(
      { type: 'reply-started', to: { threadId: 'a', author: 'Ada' } },
      { type: 'draft-changed', text: 'Can we crop this?' },
      { type: 'post-started' },
      { type: 'post-failed' },
    );
    expect(failed.draft).toEqual({ text: 'Can we crop this?', replyTo: { threadId: 'a', author: 'Ada' }, status: 'not-sent' });
    expect(canSubmitDraft(failed.draft)).toBe(true);
    const retried = reduceComments(failed, { type: 'post-started' });
    expect(retried.draft.status).toBe('sending');
    const sent = reduceComments(retried, { type: 'post-succeeded' });
    expect(sent.draft).toEqual({ text: '', replyTo: null, status: 'editing' });
  });

  it('editing a not-sent comment makes it a draft again, text kept', () => {
    const failed = run({ type: 'draft-changed', text: 'Hello' }, { type: 'post-started' }, { type: 'post-failed' });
    const edited = reduceComments(failed, { type: 'draft-changed', text: 'Hello there' });
    expect(edited.draft).toMatchObject({ text: 'Hello there', status: 'editing' });
  });

  it('ignores post outcomes when no send is running', () => {
    const state = run({ type: 'draft-changed', text: 'x' });
    expect(reduceComments(state, { type: 'post-succeeded' })).toBe(state);
    expect(reduceComments(state, { type: 'post-failed' })).toBe(state);
  });
});

describe('visitor store (one load per page, shared by every control)', () => {
  const deferred = () => {
    let resolve!: (v: TVisitorEngagement) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<TVisitorEngagement>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };

  it('loads once and tells every subscriber', async () => {
    let calls = 0;
    const d = deferred();
    const store = createVisitorStore(() => {
      calls++;
      return d.promise;
    });
    let seen = 0;
    store.subscribe(() => seen++);
    const first = store.ensureLoaded();
    const second = store.ensureLoaded();
    expect(first).toBe(second);
    expect(store.getSnapshot().status).toBe('loading');
    d.resolve({
      visitor: { name: 'User 9fQk', hasName: false, email: null },
      favorites: new Set(['f1']),
      approvals: new Map([['f2', 'rejected']]),
      commentCounts: new Map([['f1', 2]]),
    });
    await first;
    expect(calls).toBe(1);
    expect(seen).toBe(2);
    expect(store.getSnapshot().favorites.has('f1')).toBe(true);
    expect(store.getSnapshot().approvals.get('f2')).toBe('rejected');
    expect(store.getSnapshot().commentCounts.get('f1')).toBe(2);
    expect(store.getSnapshot().visitorName).toBe('User 9fQk');
  });

  it('keeps changes confirmed while the load was in flight', async () => {
    const d = deferred();
    const store = createVisitorStore(() => d.promise);
    const loading = store.ensureLoaded();
    store.setFavorite('f1', false);
    store.setApproval('f2', 'approved');
    store.setCommentCount('f1', 3);
    d.resolve({
      visitor: { name: 'User 9fQk', hasName: false, email: null },
      favorites: new Set(['f1']),
      approvals: new Map([['f2', 'rejected']]),
      commentCounts: new Map([['f1', 2]]),
    });
    await loading;
    expect(store.getSnapshot().favorites.has('f1')).toBe(false);
    expect(store.getSnapshot().approvals.get('f2')).toBe('approved');
    expect(store.getSnapshot().commentCounts.get('f1')).toBe(3);
  });

  it('may load again after a failed load', async () => {
    let calls = 0;
    const store = createVisitorStore(async () => {
      calls++;
      if (calls === 1) throw new Error('offline');
      return { visitor: { name: 'User 9fQk', hasName: false, email: null }, favorites: new Set(['f9']), approvals: new Map(), commentCounts: new Map() };
    });
    await store.ensureLoaded();
    expect(store.getSnapshot().status).toBe('error');
    await store.ensureLoaded();
    expect(store.getSnapshot().status).toBe('ready');
    expect(store.getSnapshot().favorites.has('f9')).toBe(true);
  });

  it('takes the name the visitor gave, also over a load that was in flight', async () => {
    const d = deferred();
    const store = createVisitorStore(() => d.promise);
    const loading = store.ensureLoaded();
    store.setVisitor({ name: 'Anna', hasName: true, email: 'anna@example.com' });
    expect(store.getSnapshot()).toMatchObject({ visitorName: 'Anna', hasName: true, visitorEmail: 'anna@example.com' });
    d.resolve({ visitor: { name: 'User 9fQk', hasName: false, email: null }, favorites: new Set(), approvals: new Map(), commentCounts: new Map() });
    await loading;
    expect(store.getSnapshot()).toMatchObject({ status: 'ready', visitorName: 'Anna', hasName: true, visitorEmail: 'anna@example.com' });
  });

  it('hands out a new snapshot object on every change (so React re-renders)', () => {
    const store = createVisitorStore(async () => ({ visitor: { name: '', hasName: false, email: null }, favorites: new Set(), approvals: new Map(), commentCounts: new Map() }));
    const before = store.getSnapshot();
    store.setFavorite('a', true);
    expect(store.getSnapshot()).not.toBe(before);
    expect(before.favorites.has('a')).toBe(false);
  });
});

describe('reply readers agree with the shared schemas', () => {
  const comment = {
    id: 'c1',
    fileId: 'f1',
    parentId: null,
    userName: 'User 9fQk',
    commentText: '<b>hi</b>',
    createdAt: '2026-11-22T10:00:00.000Z',
    isOwn: true,
    isCreator: false,
  };
  const replies = {
    comments: { success: true, total: 2, comments: [{ ...comment, replies: [{ ...comment, id: 'c2', parentId: 'c1', isOwn: false }] }] },
    state: {
      success: true,
      visitor: { name: 'Anna Berg', hasName: true, email: 'anna@example.com' },
      features: { favorites: true, comments: true, approvals: false, analytics: true },
      favorites: ['f1'],
      approvals: [{ fileId: 'f1', status: 'rejected' }],
      commentCounts: { f1: 2 },
    },
    favorite: { success: true, fileId: 'f1', isFavorite: true, favoritesCount: 3 },
    approval: { success: true, fileId: 'f1', status: 'approved', updatedAt: '2026-11-22T10:00:00.000Z' },
    created: { success: true, comment: { ...comment, replies: [] } },
    profile: { success: true, visitor: { name: 'User 9fQk', hasName: false, email: null } },
  };

  it('reads what the schemas accept, to the same values', () => {
    expect(readCommentsResponse(replies.comments)).toEqual(ZCommentsResponseSchema.parse(replies.comments));
    expect(readEngagementState(replies.state)).toEqual(ZEngagementStateResponseSchema.parse(replies.state));
    expect(readFavoriteResponse(replies.favorite)).toEqual(ZFavoriteResponseSchema.parse(replies.favorite));
    expect(readVisitorProfileResponse(replies.profile)).toEqual(ZVisitorProfileResponseSchema.parse(replies.profile));
    expect(readApprovalResponse(replies.approval)).toEqual(ZApprovalResponseSchema.parse(replies.approval));
    const { replies: _replies, ...created } = ZCreateCommentResponseSchema.parse(replies.created).comment;
    expect(readCreatedComment(replies.created)).toEqual(created);
  });

  it('refuses what the schemas refuse', () => {
    const broken = [
      [readCommentsResponse, ZCommentsResponseSchema, { ...replies.comments, comments: [{ ...comment }] }],
      [readCommentsResponse, ZCommentsResponseSchema, { ...replies.comments, success: false }],
      [readEngagementState, ZEngagementStateResponseSchema, { ...replies.state, approvals: [{ fileId: 'f1', status: 'maybe' }] }],
      [readEngagementState, ZEngagementStateResponseSchema, { ...replies.state, visitor: { name: 'User 9fQk' } }],
      [readVisitorProfileResponse, ZVisitorProfileResponseSchema, { success: true, visitor: { name: 'Anna', hasName: 'yes', email: null } }],
      [readFavoriteResponse, ZFavoriteResponseSchema, { ...replies.favorite, favoritesCount: -1 }],
      [readApprovalResponse, ZApprovalResponseSchema, { ...replies.approval, status: 'ok' }],
      [readCreatedComment, ZCreateCommentResponseSchema, { success: true, comment: { ...comment, isOwn: 'yes', replies: [] } }],
      [readCreatedComment, ZCreateCommentResponseSchema, { success: true, comment: { ...comment, isCreator: undefined, replies: [] } }],
    ] as const;
    for (const [read, schema, value] of broken) {
      expect(schema.safeParse(value).success).toBe(false);
      expect(() => read(value)).toThrow(ReplyShapeError);
    }
  });

  it('mirrors the shared constants and rules', () => {
    expect(COMMENT_LIST_HEIGHT).toBe(COMMENT_LIST_HEIGHT_PX);
    expect(COMMENT_MAX_LENGTH).toBe(COMMENT_MAX_CHARS);
    const samples = ['', '   ', 'ok', ' ok ', 'a\u0000b', '\uD800', 'x'.repeat(5000), 'x'.repeat(5001), '😀'.repeat(5000), '😀'.repeat(5001), '👩‍👩‍👧 שלום'];
    for (const sample of samples) expect(isCommentTextSendable(sample), JSON.stringify(sample.slice(0, 8))).toBe(findCommentTextProblem(sample) === null);
    for (const id of ['', 'ab', 'session_1700_abcd9f2k']) expect(formatVisitorName(id)).toBe(visitorDisplayName(id));
    expect(VISITOR_NAME_MAX_LENGTH).toBe(VISITOR_NAME_MAX_CHARS);
    const names = [
      '',
      '  ',
      'Anna',
      ' Anna Berg ',
      'a\u0000b',
      'line\nbreak',
      'tab\there',
      'evil\u202Eexe',
      '\uD800',
      'x'.repeat(60),
      'x'.repeat(61),
      '😀'.repeat(60),
      '😀'.repeat(61),
      'Zoë Ørsted-李',
    ];
    for (const name of names) expect(visitorNameProblem(name) === null, JSON.stringify(name)).toBe(findVisitorNameProblem(name.trim()) === null);
    const emails = ['', ' ', 'anna@example.com', ' anna@example.com ', 'anna@example', 'a b@example.com', 'a@b.c\r\nBcc: x@y.z', 'a\u0007@b.co', `${'a'.repeat(320)}@b.co`];
    for (const email of emails) expect(isVisitorEmailSendable(email), JSON.stringify(email)).toBe(email.trim() === '' || isValidVisitorEmail(email.trim()));
  });
});

describe('draft memory (nothing typed is lost when the panel closes)', () => {
  const draft = { text: 'Crop tighter?', replyTo: null, status: 'editing' as const };

  it('keeps drafts per file and forgets empty ones', () => {
    const memory = createDraftMemory();
    memory.save('p/f1', draft);
    expect(memory.read('p/f1')).toEqual(draft);
    expect(memory.read('p/f2')).toEqual({ text: '', replyTo: null, status: 'editing' });
    memory.save('p/f1', { text: '', replyTo: null, status: 'editing' });
    expect(memory.read('p/f1').text).toBe('');
  });

  it('follows a send after the panel is gone: success empties the draft and counts it', async () => {
    const memory = createDraftMemory();
    let sent = 0;
    let resolve!: () => void;
    const tracked = memory.track('p/f1', draft, new Promise<void>((r) => (resolve = r)), () => sent++);
    expect(memory.read('p/f1').status).toBe('sending');
    expect(memory.pending('p/f1')).toBe(tracked);
    resolve();
    expect(await tracked).toBe(true);
    expect(memory.read('p/f1').text).toBe('');
    expect(sent).toBe(1);
    expect(memory.pending('p/f1')).toBeUndefined();
  });

  it('keeps a failed send as not sent, text intact', async () => {
    const memory = createDraftMemory();
    const isSent = await memory.track('p/f1', draft, Promise.reject(new Error('500')), () => {});
    expect(isSent).toBe(false);
    expect(memory.read('p/f1')).toEqual({ ...draft, status: 'not-sent' });
  });
});
