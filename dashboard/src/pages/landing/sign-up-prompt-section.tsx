import { APP_PATHS } from '@dropsite/shared/app-routes';
import { ANONYMOUS_WINDOW_DAYS } from '@dropsite/shared/constants';
import { ArrowRightIcon } from '../../ui/icons.tsx';

/**
 * Spec: a sign-up prompt block right after the hero; its button goes to /dashboard (which asks a
 * signed-out visitor to sign in). An anonymous creator whose sites had visitors sees the engagement
 * teaser here instead (the engagement loop fills the slot): one prompt, in the page, not over the upload.
 */
export function SignUpPromptSection() {
  return (
    <section className="section section--tight signup-prompt-section" aria-labelledby="signup-prompt-heading">
      <div className="container">
        <div className="engagement-slot" data-engagement-slot="" />
        <div className="signup-prompt">
          <div>
            <h2 id="signup-prompt-heading" className="signup-prompt__title">
              Keep every site in one place
            </h2>
            <p className="signup-prompt__text">
              Sites you publish without an account stay online, and the browser you published from can follow them for {ANONYMOUS_WINDOW_DAYS} days. Create a free account to keep
              them in your dashboard for good, see who viewed and downloaded what, and reply to your clients’ comments.
            </p>
          </div>
          <a className="button button--secondary button--large signup-prompt__button" href={APP_PATHS.dashboard}>
            Go to your dashboard
            <ArrowRightIcon size={18} />
          </a>
        </div>
      </div>
    </section>
  );
}
