/** The process's concurrency limiter lives in shared, where the API's password hashing uses it too. */
export { createGate, createLimiter, type TGate } from '@dropsite/shared';
