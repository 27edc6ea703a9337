/**
 * /undo-email-change?token=: the link mailed to an account's previous address when a change of
 * address was asked or completed. When the creator presses the button (never on opening: mail
 * scanners open links) the account gets that address back, every device is signed out, the
 * password is removed, and this browser is signed in.
 */
import { authApi } from '../../auth/auth-api.ts';
import { ACCOUNT_PATH } from '../../auth/auth-paths.ts';
import { EmailLinkActionPage } from './email-link-action-page.tsx';

export function UndoEmailChangePage() {
  return (
    <EmailLinkActionPage
      title="Secure your account"
      lede="Press the button to keep this address for your Dropsite account. Every device is signed out and the password is removed; you stay signed in here."
      noTokenLede="This page needs the link from our email. Open the message again and use its button."
      action={{ label: 'Secure My Account', busyLabel: 'Securing...', run: (token) => authApi.undoEmailChange(token) }}
      done={{
        title: 'Your account is safe',
        text: (email) => (
          <>
            Your account uses <strong>{email}</strong> again, and every other device is signed out. It has no password now: choose a new one on your account page within 10 minutes,
            or sign in later with a link sent to this address.
          </>
        ),
        actions: (
          <a className="button button--primary button--large" href={ACCOUNT_PATH}>
            Choose a Password
          </a>
        ),
      }}
    />
  );
}
