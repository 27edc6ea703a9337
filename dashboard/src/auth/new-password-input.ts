import { PASSWORD_MIN_LENGTH } from '@dropsite/shared';

/** A new password's input: password managers offer to make one, and the browser asks for a length an account accepts. */
export const NEW_PASSWORD_INPUT = { type: 'password', autoComplete: 'new-password', minLength: PASSWORD_MIN_LENGTH, maxLength: 256, required: true } as const;
