import { describe, expect, it } from 'vitest';
import {
  findCommentTextProblem,
  isValidEmailAddress,
  urgencyForDaysRemaining,
  visitorDisplayName,
  ZApprovalRequestSchema,
  ZEmailCollectionRequestSchema,
  ZEngagementTargetSchema,
} from './engagement.ts';

describe('engagement rules', () => {
  it('accepts emails shaped text@text.text without spaces (spec 5)', () => {
    for (const ok of ['a@b.co', 'first.last+tag@studio.example', 'ü@exämple.de']) expect(isValidEmailAddress(ok), ok).toBe(true);
    for (const bad of ['', 'a@b', 'a b@c.de', 'a@b .de', '@b.de', 'a@.', 'a@b.', 'ab.cd', `${'a'.repeat(320)}@b.de`]) expect(isValidEmailAddress(bad), bad).toBe(false);
  });

  it('finds what is wrong with a comment', () => {
    expect(findCommentTextProblem('   \n')).toBe('blank');
    expect(findCommentTextProblem('ok')).toBeNull();
    expect(findCommentTextProblem('x'.repeat(5000))).toBeNull();
    expect(findCommentTextProblem('x'.repeat(5001))).toBe('too_long');
    expect(findCommentTextProblem('🙂'.repeat(5000))).toBeNull();
    expect(findCommentTextProblem('a\u0000b')).toBe('invalid');
    expect(findCommentTextProblem('a\ud800b')).toBe('invalid');
    expect(findCommentTextProblem('a\udc00b')).toBe('invalid');
    expect(findCommentTextProblem('👩‍👩‍👧‍👦 مرحبا e\u0301')).toBeNull();
  });

  it('names visitors and colours the teaser by days remaining', () => {
    expect(visitorDisplayName('Zx9_abcdEFGHijklMNOP-q')).toBe('User OP-q');
    expect([0, 1, 2, 3, 4, 7].map(urgencyForDaysRemaining)).toEqual(['high', 'high', 'medium', 'medium', 'low', 'low']);
  });

  it('accepts the spec’s payloads with their identity fields, and refuses ids that are not ids', () => {
    const id = 'A'.repeat(22);
    expect(ZApprovalRequestSchema.parse({ projectId: id, fileId: id, userEmail: 'session_1_abc', userName: 'Userabc', status: 'approved' })).toMatchObject({ status: 'approved' });
    expect(ZEngagementTargetSchema.safeParse({ projectId: '../x', fileId: id }).success).toBe(false);
    expect(ZEmailCollectionRequestSchema.parse({ email: ' a@b.co ', trigger: 'return_visit', anonymousSessionId: 'anon_1_x', timestamp: 1 }).email).toBe('a@b.co');
  });
});
