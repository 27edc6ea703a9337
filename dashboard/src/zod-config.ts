/**
 * The dashboard's CSP allows no eval: zod would otherwise probe for it (new Function) and the browser
 * report a violation, even though the probe's error is caught. The build puts this module in zod's own
 * chunk (vite.config.ts), so it runs as soon as zod loads, whichever page or module loads it first.
 */
import { z } from 'zod';

z.config({ jitless: true });
