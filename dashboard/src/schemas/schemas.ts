/**
 * Every zod schema the dashboard checks a reply, a stored record or an event with, in one chunk with
 * zod itself. It is loaded by `loadSchemas` (./lazy-schemas.ts) when there is something to check, so
 * a first visit to the landing page, which has nothing to check, never downloads zod.
 */
// No eval under the dashboard's CSP: set before any schema here parses (the build puts this module in
// zod's own chunk, so it runs as soon as zod loads, whoever loads it).
import '../zod-config.ts';
import { ZEmailTriggerSchema, ZLocalNotificationSchema } from '@dropsite/shared';
import { z } from 'zod';

import { parseReply } from '../api-reply.ts';
import * as sharedSchemas from './shared-schemas.ts';

/** Spec 3 'Email collection record kept locally'. */
const ZCollectedEmailRecordSchema = z.object({
  email: z.string(),
  collected_via: ZEmailTriggerSchema,
  /** Epoch ms. */
  collected_at: z.number(),
  project_id: z.string().nullable(),
});

/** The bell's list as kept in localStorage: a damaged part falls back to its empty value. */
const ZStoredNotificationsSchema = z.object({
  items: z.array(ZLocalNotificationSchema).catch([]),
  /** The newest update time seen (ISO), sent as `since` so cleared entries do not come back. */
  since: z.string().nullable().catch(null),
  /** Ids of expiration warnings already raised (so clearing one does not bring it back). */
  raisedWarnings: z.array(z.string()).catch([]),
});

/** The detail of the wizard's 'dropsite:published' event. */
const ZPublishedDetailSchema = z.object({ slug: z.string(), url: z.string(), projectId: z.string().optional() });
/** The detail of a page's 'dropsite:email-prompt' event. */
const ZPromptRequestSchema = z.object({ trigger: ZEmailTriggerSchema, projectId: z.string().optional() });

/** What `loadSchemas` answers: the check of a reply, and each schema by name. */
export const schemas = {
  parseReply,
  ...sharedSchemas,
  ZCollectedEmailRecordSchema,
  ZStoredNotificationsSchema,
  ZPublishedDetailSchema,
  ZPromptRequestSchema,
};
