/** What the preview area is wired with: the pieces of the runtime it reads. deps.ts gives it the whole runtime. */
import type { Clock } from '../clock.ts';
import type { TConfig } from '../config/config.ts';
import type { TPublishGate } from '../publishing/publish-limits.ts';

export interface TPreviewDeps {
  /** The zod-parsed settings of this process. */
  config: TConfig;
  clock: Clock;
  limits: { publish: TPublishGate };
}
