/**
 * /verify-email?token=: confirms an address (a new account's, or the new one of an address
 * change) when the creator presses the button, never on opening: mail scanners open links.
 */
import { authApi } from '../../auth/auth-api.ts';
import { ACCOUNT_PATH, DASHBOARD_PATH } from '../../auth/auth-paths.ts';
import { EmailLinkActionPage } from './email-link-action-page.tsx';

export function VerifyEmailPage() {
  return (
    <EmailLinkActionPage
      title="Confirm your email address"
      lede="Press the button to confirm that this address is yours."
      noTokenLede="This page needs the link from our email. Open the message again and use its button, or sign in and ask for a new one from your account page."
      action={{ label: 'Confirm my email', busyLabel: 'Confirming...', run: (token) => authApi.verifyEmail(token) }}
      done={{
        title: 'Email address confirmed',
        text: (email) => (
          <>
            <strong>{email}</strong> is confirmed. We will write to it when visitors react to your sites, and only when you have asked us to.
          </>
        ),
        actions: (
          <>
            <a className="button button--primary button--large" href={DASHBOARD_PATH}>
              Go to Dashboard
            </a>
            <a className="button button--secondary button--large" href={ACCOUNT_PATH}>
              Account settings
            </a>
          </>
        ),
      }}
      fallback={
        <a className="button button--primary button--large auth-form__submit" href={ACCOUNT_PATH}>
          Go to my account
        </a>
      }
    />
  );
}
