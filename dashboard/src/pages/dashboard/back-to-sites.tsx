/** The link from a site's pages back to the list of sites. */
import { APP_PATHS } from '@dropsite/shared/app-routes';
import { ArrowLeftIcon } from '../../ui/icons.tsx';

export function BackToSites() {
  return (
    <a className="dash-back" href={APP_PATHS.dashboard}>
      <ArrowLeftIcon size={16} />
      All sites
    </a>
  );
}
