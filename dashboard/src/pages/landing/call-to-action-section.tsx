import { ArrowRightIcon } from '../../ui/icons.tsx';

export function CallToActionSection() {
  return (
    <section className="section section--tight" aria-labelledby="cta-heading">
      <div className="container">
        <div className="cta">
          <div>
            <h2 id="cta-heading" className="cta__title">
              Your next delivery can look as good as the work in it.
            </h2>
            <p className="cta__text">Publish your first site now. No account, no setup.</p>
          </div>
          <a className="button button--large cta__button" href="#upload">
            Upload your files
            <ArrowRightIcon size={18} />
          </a>
        </div>
      </div>
    </section>
  );
}
