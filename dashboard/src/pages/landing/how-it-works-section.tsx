import { LandingSection } from './landing-section.tsx';

const STEPS = [
  {
    title: 'Drop your files',
    text: 'Photos, video, PDFs, decks, archives or a whole folder. Any file type, as many as the delivery needs.',
  },
  {
    title: 'Add 2–3 details',
    text: 'A title, a short description and, if you like, your name. The title is filled in from your first file.',
  },
  {
    title: 'Share and track',
    text: 'Send the link or the QR code. See when your site is viewed and which files are downloaded.',
  },
] as const;

export function HowItWorksSection() {
  return (
    <LandingSection id="how-it-works" alt headingId="how-heading" eyebrow="How it works" title="From a folder of files to a page you’re proud to send">
      <ol role="list" className="steps">
        {STEPS.map((step, index) => (
          <li key={step.title} className="step">
            <span className="step__number" aria-hidden="true">
              {String(index + 1).padStart(2, '0')}
            </span>
            <h3 className="step__title">
              <span className="visually-hidden">Step {index + 1}: </span>
              {step.title}
            </h3>
            <p className="step__text">{step.text}</p>
          </li>
        ))}
      </ol>
    </LandingSection>
  );
}
