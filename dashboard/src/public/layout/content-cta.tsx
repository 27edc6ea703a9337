/** The closing band of a content page: a heading, a line of text, an arrow button and further links. */
import type { ReactNode } from 'react';
import { ArrowLink } from '../../ui/arrow-link.tsx';

interface ILink {
  href: string;
  label: string;
}

interface IContentCtaProps {
  headingId: string;
  title: ReactNode;
  text: ReactNode;
  primary: ILink;
  secondary: readonly ILink[];
}

export function ContentCta({ headingId, title, text, primary, secondary }: IContentCtaProps) {
  return (
    <aside className="content-cta" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <p>{text}</p>
      <div className="content-cta__actions">
        <ArrowLink className="button button--primary button--large" href={primary.href} iconSize={18}>
          {primary.label}
        </ArrowLink>
        {secondary.map((link) => (
          <a key={link.href} className="button button--secondary button--large" href={link.href}>
            {link.label}
          </a>
        ))}
      </div>
    </aside>
  );
}
