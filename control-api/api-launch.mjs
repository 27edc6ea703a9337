/**
 * How every launcher starts the API process (npm start, Docker, the browser tests, the
 * benchmarks). A server that streams gigabytes through short-lived buffers stays small and fast
 * with two settings that cannot be changed once the process runs:
 * - a 4 MB young generation (V8's default grows to 16 MB per semi-space): short-lived objects die
 *   in a space that stays in the CPU's cache, and the process does not hold 24 MB it never uses;
 * - two malloc arenas (glibc makes up to eight per core for V8's helper threads): freed buffers
 *   are reused instead of each thread keeping its own high-water mark.
 * See docs/architecture.md, "Process memory".
 */
export const API_NODE_FLAGS = ['--max-semi-space-size=4'];
export const API_ENV = { MALLOC_ARENA_MAX: '2' };
