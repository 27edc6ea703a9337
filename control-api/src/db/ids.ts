/** Random row ids: unguessable, URL-safe and the same text on every dialect. */
import { randomBytes } from 'node:crypto';

/** 128 random bits as base64url: 22 characters. */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}
