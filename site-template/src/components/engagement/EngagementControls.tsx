/**
 * Favourite, approval and comment controls for the file a viewer shows. Viewers render
 * this inside their own island, for the file in view, never one island per file.
 * Each control appears only when the project's setting for it is on.
 */
import type { TSiteSettings } from '@dropsite/shared';

export interface TEngagementControlsProps {
  projectId: string;
  fileId: string;
  fileName: string;
  settings: TSiteSettings;
  /** 'compact' for toolbars and overlays, 'full' for detail panels with the comment list. */
  variant?: 'compact' | 'full';
}

export function EngagementControls(_props: TEngagementControlsProps): null {
  return null;
}
