/**
 * The inside of a call-to-action band: a heading and a line of text on one side, a large arrow
 * button on the other. `block` names its BEM block (`cta` on the landing page, `ink-cta` on the
 * content pages); the caller draws the band itself.
 */
import type { ReactNode } from 'react';
import { ArrowLink } from './arrow-link.tsx';

interface ICallToActionProps {
  block: 'cta' | 'ink-cta';
  headingId: string;
  title: ReactNode;
  /** The heading's larger size (`<block>__title--large`). */
  largeTitle?: boolean;
  text: ReactNode;
  href: string;
  action: ReactNode;
}

export function CallToAction({ block, headingId, title, largeTitle = false, text, href, action }: ICallToActionProps) {
  return (
    <>
      <div>
        <h2 id={headingId} className={largeTitle ? `${block}__title ${block}__title--large` : `${block}__title`}>
          {title}
        </h2>
        <p className={`${block}__text`}>{text}</p>
      </div>
      <ArrowLink className={`button button--large ${block}__button`} href={href} iconSize={18}>
        {action}
      </ArrowLink>
    </>
  );
}
