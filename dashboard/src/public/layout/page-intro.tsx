/** The header a public page opens with: eyebrow, title and lede, classed by the page's BEM block. */
import type { ReactNode } from 'react';

interface IPageIntroProps {
  /** The page's block: `content-page` for the content pages, else the page's own. */
  block?: string;
  eyebrow: string;
  title: ReactNode;
  /** The paragraph under the title; a page that lays out more than one paragraph gives `children` instead. */
  lede?: ReactNode;
  children?: ReactNode;
}

export function PageIntro({ block = 'content-page', eyebrow, title, lede, children }: IPageIntroProps) {
  return (
    <header className={`${block}__header`}>
      <p className="eyebrow">{eyebrow}</p>
      <h1 className={`${block}__title`}>{title}</h1>
      {lede !== undefined && <p className={`${block}__lede`}>{lede}</p>}
      {children}
    </header>
  );
}
