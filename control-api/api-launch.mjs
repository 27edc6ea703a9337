/**
 * How every launcher starts the API process (npm start, Docker, the browser tests, the
 * benchmarks). A server that streams gigabytes through short-lived buffers stays small and fast
 * with two settings that cannot be changed once the process runs:
 * - a 4 MB young generation (two 2 MB semi-spaces; V8's default grows to 32 MB): short-lived objects die
 *   in a space that stays in the CPU's cache, and the process does not hold 28 MB it never uses;
 * - two malloc arenas (glibc makes up to eight per core for V8's helper threads): freed buffers
 *   are reused instead of each thread keeping its own high-water mark;
 * - allocations up to 8 MB from those arenas, and up to 32 MB kept free at their top (glibc's
 *   defaults map and unmap anything over 128 KB on every call): a Brotli encoder's tables, a few
 *   megabytes made and freed for every page a build compresses, then cost no page faults. A 50 KB
 *   page's Brotli variant takes 0.9-1 ms of CPU instead of 4-7 ms.
 * See docs/performance.md, "Process memory".
 */
export const API_NODE_FLAGS = ['--max-semi-space-size=2'];
export const API_ENV = { MALLOC_ARENA_MAX: '2', GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=8388608:glibc.malloc.trim_threshold=33554432' };
