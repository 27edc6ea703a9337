/**
 * Imported first by main.tsx, before any module that parses with zod at load time. The dashboard's
 * CSP allows no eval: zod would otherwise probe for it (new Function) and the browser report a
 * violation, even though the probe's error is caught.
 */
import { z } from 'zod';

z.config({ jitless: true });
