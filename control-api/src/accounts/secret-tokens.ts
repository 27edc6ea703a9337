/**
 * The secrets accounts hand out (session secrets, one-time link tokens): 160 random bits as
 * lower-case base32, kept only as their SHA-256 and compared in constant time (as the Lucia
 * guide does, with @oslojs), so a copy of the database signs no one in.
 */
import { sha256 } from '@oslojs/crypto/sha2';
import { constantTimeEqual } from '@oslojs/crypto/subtle';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';

const SECRET_BYTES = 20;
const encoder = new TextEncoder();

/** 160 random bits: 32 characters of [a-z2-7]. */
export function randomSecret(): string {
  return encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/** The SHA-256 of a secret, as 64 hex characters (what is stored). */
export function hashSecret(secret: string): string {
  return encodeHexLowerCase(sha256(encoder.encode(secret)));
}

/** Whether two stored hashes are the same, in time independent of where they differ. */
export function sameHash(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  return x.length === y.length && constantTimeEqual(x, y);
}

/** A secret's shape as handed out (anything else is refused before the database is asked). */
export const SECRET_PATTERN = '[a-z2-7]{32}';
