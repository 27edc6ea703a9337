/** A link drawn as a button whose label ends with the arrow pointing onwards. */
import type { ReactNode } from 'react';
import { ArrowRightIcon } from './icons.tsx';

interface IArrowLinkProps {
  href: string;
  /** The button classes, e.g. `button button--secondary`. */
  className: string;
  /** 18 px beside a large button, 16 px otherwise. */
  iconSize?: 16 | 18;
  'aria-label'?: string;
  children: ReactNode;
}

export function ArrowLink({ href, className, iconSize = 16, children, 'aria-label': ariaLabel }: IArrowLinkProps) {
  return (
    <a className={className} href={href} aria-label={ariaLabel}>
      {children}
      <ArrowRightIcon size={iconSize} />
    </a>
  );
}
