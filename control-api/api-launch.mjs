/**
 * How every launcher starts the API process (npm start, Docker, the browser tests, the
 * benchmarks). A server that streams gigabytes through short-lived buffers stays small and fast
 * with two settings that cannot be changed once the process runs:
 * - a 4 MB young generation (two 2 MB semi-spaces; V8's default grows to 32 MB): short-lived objects die
 *   in a space that stays in the CPU's cache, and the process does not hold 28 MB it never uses;
 * - two malloc arenas (glibc makes up to eight per core for V8's helper threads): freed buffers
 *   are reused instead of each thread keeping its own high-water mark.
 * See docs/performance.md, "Process memory".
 */
export const API_NODE_FLAGS = ['--max-semi-space-size=2'];
export const API_ENV = { MALLOC_ARENA_MAX: '2' };
