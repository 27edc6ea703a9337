/** What the preview area is wired with: the pieces of the runtime it reads. deps.ts gives it the whole runtime. */
import type { TPublishGate } from '../publishing/publish-limits.ts';
import type { TCoreDeps } from '../core-deps.ts';

export interface TPreviewDeps extends Pick<TCoreDeps, 'config' | 'clock'> {
  limits: { publish: TPublishGate };
}
