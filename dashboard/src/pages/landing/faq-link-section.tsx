import { ArrowLink } from '../../ui/arrow-link.tsx';

/** Spec: after pricing, a link to the FAQ. */
export function FaqLinkSection() {
  return (
    <section className="section section--tight" aria-labelledby="faq-link-heading">
      <div className="container">
        <div className="faq-link">
          <h2 id="faq-link-heading" className="faq-link__title">
            Questions before you start?
          </h2>
          <p className="faq-link__text">Uploads, sharing, templates, plans and billing: the answers are in one place.</p>
          <ArrowLink className="button button--secondary" href="/faq">
            Read the FAQ
          </ArrowLink>
        </div>
      </div>
    </section>
  );
}
