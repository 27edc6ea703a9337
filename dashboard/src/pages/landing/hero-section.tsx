import { CheckIcon } from '../../ui/icons.tsx';
import { UploadWizard } from '../../wizard/upload-wizard.tsx';

const POINTS = ['Any file type, as many files as you need', 'A short link and a QR code for every site', 'No account needed to publish'];

/** The landing page's first screen: the pitch beside the upload wizard, its centrepiece. */
export function HeroSection() {
  return (
    <section className="hero" aria-labelledby="hero-heading">
      <div className="hero__inner container">
        <div className="hero__copy">
          <p className="eyebrow">File delivery for creative work</p>
          <h1 id="hero-heading" className="hero__title">
            Send your work as a site, not a&nbsp;download&nbsp;link.
          </h1>
          <p className="hero__lede">
            Drop photos, video, PDFs or whole folders, give them a title, and share one link to a polished page where your client can view and download every file.
          </p>
          <ul role="list" className="hero__points">
            {POINTS.map((point) => (
              <li key={point}>
                <CheckIcon size={18} />
                {point}
              </li>
            ))}
          </ul>
        </div>
        <div className="hero__upload">
          <UploadWizard />
        </div>
      </div>
    </section>
  );
}
