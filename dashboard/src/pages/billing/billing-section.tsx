/** A section of the billing page: its title with something beside it (a note, a switch), then its content. */
import type { ReactNode } from 'react';

export function BillingSection({ titleId, title, aside, children }: { titleId: string; title: string; aside: ReactNode; children: ReactNode }) {
  return (
    <section className="billing-section" aria-labelledby={titleId}>
      <div className="billing-section__head">
        <h2 id={titleId} className="billing-section-title">
          {title}
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}
