/** What GET /api/invitations/:token answered, as the invitation page shows it. */
import { ZInvitationPreviewSchema, type TInvitationPreview } from '@dropsite/shared';
import { callApi, ApiRequestError, type TSendRequest } from '@dropsite/shared/browser/api-client';
import { z } from 'zod';
import { failureMessage } from '../../auth/failure-message.ts';
import { parseReply } from '../../api-reply.ts';

export type TInvitationState =
  | { status: 'loading' }
  | { status: 'valid'; invitation: TInvitationPreview }
  /** 410: the link's week is over. `invitedBy` when the refusal names them. */
  | { status: 'expired'; invitedBy: string | null }
  /** 404: never made, used already, or revoked. */
  | { status: 'unknown' }
  | { status: 'failed'; message: string };

/** What an expired invitation's refusal may carry beside its error: who sent it. */
const ZExpiredBodySchema = z.object({ invitedBy: z.string().min(1) });

/**
 * Asks about the invitation. The expired answer (410) is read for `invitedBy`, so the page can say
 * whom to ask for a new one; without it the page says 'the person who invited you'.
 */
export async function readInvitation(token: string, send: TSendRequest = (path, init) => fetch(path, init)): Promise<TInvitationState> {
  const path = `/api/invitations/${encodeURIComponent(token)}`;
  let expiredBy: string | null = null;
  const reading: TSendRequest = async (p, init) => {
    const response = await send(p, init);
    if (response.status === 410) {
      const body: unknown = await response
        .clone()
        .json()
        .catch(() => null);
      const parsed = ZExpiredBodySchema.safeParse(body);
      if (parsed.success) expiredBy = parsed.data.invitedBy;
    }
    return response;
  };
  try {
    return { status: 'valid', invitation: parseReply(ZInvitationPreviewSchema, await callApi(path, {}, reading)) };
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404) return { status: 'unknown' };
    if (error instanceof ApiRequestError && error.status === 410) return { status: 'expired', invitedBy: expiredBy };
    return { status: 'failed', message: failureMessage(error) };
  }
}

/** Whether the signed-in address is the one invited (addresses compare without case). */
export function isInvitedAddress(invitation: TInvitationPreview, email: string): boolean {
  return invitation.email.trim().toLowerCase() === email.trim().toLowerCase();
}
