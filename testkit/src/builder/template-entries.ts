/** Stand-in server entries for the site template, for tests of how the builder treats a template's output. */
import { fileURLToPath } from 'node:url';

/** A template entry that throws, exits, hangs or renders a small page, by the site's slug. */
export const MISBEHAVING_TEMPLATE_ENTRY = fileURLToPath(new URL('./misbehaving-entry.mjs', import.meta.url));

/** A template entry that prints the render model it receives, so a test can read what the builder derived. */
export const MODEL_ECHO_TEMPLATE_ENTRY = fileURLToPath(new URL('./model-echo-entry.mjs', import.meta.url));
