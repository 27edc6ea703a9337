import { CallToAction } from '../../ui/call-to-action.tsx';

export function CallToActionSection() {
  return (
    <section className="section section--tight" aria-labelledby="cta-heading">
      <div className="container">
        <div className="cta">
          <CallToAction
            block="cta"
            headingId="cta-heading"
            title="Your next delivery can look as good as the work in it."
            text="Publish your first site now. No account, no setup."
            href="#upload"
            action="Upload your files"
          />
        </div>
      </div>
    </section>
  );
}
