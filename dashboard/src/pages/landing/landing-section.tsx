/**
 * A section of the landing page under its heading: eyebrow and title, then an optional line of
 * text (`intro`); with `action`, a link beside the heading.
 */
import type { ReactNode } from 'react';

interface ILandingSectionProps {
  /** The section's anchor, for the header's in-page links. */
  id?: string;
  /** The tinted background (`section--alt`). */
  alt?: boolean;
  headingId: string;
  eyebrow: string;
  title: ReactNode;
  centred?: boolean;
  intro?: ReactNode;
  action?: ReactNode;
  children: ReactNode;
}

export function LandingSection({ id, alt = false, headingId, eyebrow, title, centred = false, intro, action, children }: ILandingSectionProps) {
  const heading = (
    <>
      <p className="eyebrow">{eyebrow}</p>
      <h2 id={headingId}>{title}</h2>
      {intro}
    </>
  );
  return (
    <section id={id} className={alt ? 'section section--alt' : 'section'} aria-labelledby={headingId}>
      <div className="container">
        {action ? (
          <div className="section-heading section-heading--split">
            <div>{heading}</div>
            {action}
          </div>
        ) : (
          <div className={centred ? 'section-heading section-heading--center' : 'section-heading'}>{heading}</div>
        )}
        {children}
      </div>
    </section>
  );
}
