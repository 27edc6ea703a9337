/** POST /api/preview: the wizard's preview of a draft site, rendered by the published site's template. */
import express, { Router, type RequestHandler } from 'express';
import { inlineScriptHashes, TemplateNotBuiltError } from '@dropsite/builder';
import { ZPreviewRequestSchema } from '@dropsite/shared';
import type { TPreviewDeps } from './preview.deps.ts';
import { AppError } from '../http/app-error.ts';
import { principalOf } from '../access/principal.ts';
import { renderPreview } from './preview.service.ts';
import { siteCsp } from '../sites/site-csp.ts';
import { createPreviewFrameRoutes, previewPageHeaders } from './preview-frame.ts';

/** Room for the 500 files a site may hold, with long names; far below anything that strains a render. */
export const PREVIEW_BODY_LIMIT = '512kb';

export function createPreviewRoutes(deps: TPreviewDeps, options: { serverEntry?: string } = {}): Router {
  const router = Router();
  router.use(createPreviewFrameRoutes());
  const publishGate = deps.limits.publish;
  // Per address and per anonymous creator (PREVIEW_LIMIT_PER_HOUR), before the body is read.
  const limitPreviews: RequestHandler = async (_req, res, next) => {
    await publishGate.admitPreview(principalOf(res));
    next();
  };
  router.post('/api/preview', limitPreviews, express.json({ limit: PREVIEW_BODY_LIMIT, strict: true }), async (req, res) => {
    if (!req.is('application/json')) throw new AppError('bad_request', 'Expected a JSON body');
    const draft = ZPreviewRequestSchema.parse(req.body);
    let html: string;
    try {
      html = await renderPreview(draft, deps.clock.now(), deps.config.publicUrl, options.serverEntry);
    } catch (err) {
      if (err instanceof TemplateNotBuiltError) throw new AppError('service_unavailable', 'Preview is not available right now.', { cause: err });
      throw err;
    }
    res
      .status(200)
      // The site's policy with the preview's inline script hashes; the wizard's frame asks for the same hashes.
      .set(previewPageHeaders(siteCsp(inlineScriptHashes(html))))
      .send(html);
  });
  return router;
}
