/**
 * The dashboard's check of an API reply, on top of @dropsite/shared's zod-free client: a reply of
 * another shape than its schema fails like a refused call.
 */
import { ApiRequestError } from '@dropsite/shared/browser/api-client';
import type { z } from 'zod';

/** The reply's JSON as `schema` describes it, or an ApiRequestError (502) when it is something else. */
export function parseReply<T extends z.ZodType>(schema: T, json: unknown): z.infer<T> {
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ApiRequestError('Unexpected reply from the server', 502);
  return parsed.data;
}
