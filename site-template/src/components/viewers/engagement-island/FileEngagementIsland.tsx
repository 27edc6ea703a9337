/** The engagement controls of a file shown without an interactive viewer (download card, audio). */
import type { TViewerSite } from '../../../lib/viewer-types.ts';
import { FileEngagement } from '../shared/controls.tsx';

export default function FileEngagementIsland({ site, file }: { site: TViewerSite; file: { id: string; name: string } }) {
  return <FileEngagement site={site} file={file} variant="full" />;
}
