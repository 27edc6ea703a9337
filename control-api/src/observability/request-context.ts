/**
 * The request a piece of work belongs to, carried through every await of its handling: log lines
 * written while a request (or a build it queued) is being handled name its request id, and a build
 * queued by a request carries the id into the job and the builder's log lines.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface TRequestContext {
  requestId: string;
}

const contexts = new AsyncLocalStorage<TRequestContext>();

/** Runs `work` as part of the request `requestId`; whatever it awaits or schedules stays part of it. */
export function runInRequestContext<T>(requestId: string, work: () => T): T {
  return contexts.run({ requestId }, work);
}

/** The id of the request the current code runs for, if any. */
export function currentRequestId(): string | undefined {
  return contexts.getStore()?.requestId;
}

/** A request id a client sent that is safe to log and pass on: 1-64 letters, digits, `.`, `_`, `:` or `-`. */
export const REQUEST_ID_PATTERN = /^[\w.:-]{1,64}$/;
