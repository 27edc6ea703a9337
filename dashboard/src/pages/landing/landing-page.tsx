import { useEffect } from 'react';
import { SiteFooter } from '../../chrome/site-footer.tsx';
import { SiteHeader } from '../../chrome/site-header.tsx';
import { CallToActionSection } from './call-to-action-section.tsx';
import { FeaturesSection } from './features-section.tsx';
import { HeroSection } from './hero-section.tsx';
import { HowItWorksSection } from './how-it-works-section.tsx';
import { PricingSection } from './pricing-section.tsx';
import { AudienceSection } from './audience-section.tsx';
import { FaqLinkSection } from './faq-link-section.tsx';
import { OutcomesSection } from './outcomes-section.tsx';
import { SignUpPromptSection } from './sign-up-prompt-section.tsx';
import { TemplatePreviewSection } from './template-preview-section.tsx';
import './landing.css';

export function LandingPage() {
  useEffect(() => {
    document.title = 'Dropsite — Turn your files into a shareable site';
  }, []);

  return (
    <>
      <a className="skip-link" href="#upload">
        Skip to upload
      </a>
      <SiteHeader isLandingPage />
      <main>
        <HeroSection />
        <SignUpPromptSection />
        <OutcomesSection />
        <HowItWorksSection />
        <FeaturesSection />
        <AudienceSection />
        <TemplatePreviewSection />
        <CallToActionSection />
        <PricingSection />
        <FaqLinkSection />
      </main>
      <SiteFooter />
    </>
  );
}
