/** The heading of a landing-page section: eyebrow and title, then an optional line of text; with `action`, a link on the right. */
import type { ReactNode } from 'react';

interface ISectionHeadingProps {
  headingId: string;
  eyebrow: string;
  title: ReactNode;
  centred?: boolean;
  /** A link beside the heading (the split layout). */
  action?: ReactNode;
  children?: ReactNode;
}

export function SectionHeading({ headingId, eyebrow, title, centred = false, action, children }: ISectionHeadingProps) {
  const heading = (
    <>
      <p className="eyebrow">{eyebrow}</p>
      <h2 id={headingId}>{title}</h2>
      {children}
    </>
  );
  if (action) {
    return (
      <div className="section-heading section-heading--split">
        <div>{heading}</div>
        {action}
      </div>
    );
  }
  return <div className={centred ? 'section-heading section-heading--center' : 'section-heading'}>{heading}</div>;
}
