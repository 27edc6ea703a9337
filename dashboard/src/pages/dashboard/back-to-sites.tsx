/** The link from a site's pages back to the list of sites. */
import { ArrowLeftIcon } from '../../ui/icons.tsx';

export function BackToSites() {
  return (
    <a className="dash-back" href="/dashboard">
      <ArrowLeftIcon size={16} />
      All sites
    </a>
  );
}
