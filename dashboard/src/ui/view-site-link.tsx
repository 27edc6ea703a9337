/** The published site, in a new tab, said so to screen readers. */
import { ExternalIcon } from './icons.tsx';

export function ViewSiteLink({ href, className, iconSize = 16 }: { href: string; className: string; iconSize?: number }) {
  return (
    <a className={className} href={href} target="_blank" rel="noopener">
      View Site
      <ExternalIcon size={iconSize} />
      <span className="visually-hidden">(opens in a new tab)</span>
    </a>
  );
}
