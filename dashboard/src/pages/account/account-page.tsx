/**
 * /account: the creator's name, their address (a change applies once the new address confirms a
 * link, and can be cancelled until then), their password, the devices signed in (each can be
 * signed out, or all at once) and deleting the account, confirmed by typing the address and the
 * password. An account without a password proves itself for a new address, a first password or
 * deletion by a fresh sign-in link, which the page offers to send. Signed out, the page sends the
 * browser to /sign-in and back; the server checks every call regardless.
 */
import { useCallback, useEffect, useState } from 'react';
import type { TAccountResponse, TCreatorPublic } from '@dropsite/shared';
import { failureMessage } from '../../auth/failure-message.ts';
import { authApi } from '../../auth/auth-api.ts';
import { ACCOUNT_PATH, signInHref } from '../../auth/auth-paths.ts';
import { SessionCheckFailed } from '../../auth/session-check-failed.tsx';
import { useSession } from '../../auth/session-store.ts';
import { Avatar } from '../../ui/avatar.tsx';
import { AlertIcon } from '../../ui/icons.tsx';
import { SiteFooter } from '../../chrome/site-footer.tsx';
import { SiteHeader } from '../../chrome/site-header.tsx';
import { DeleteSection } from './delete-section.tsx';
import { EmailSection } from './email-section.tsx';
import { PasswordSection } from './password-section.tsx';
import { ProfileSection } from './profile-section.tsx';
import { SessionsSection } from './sessions-section.tsx';
import '../../auth/auth.css';
import './account-page.css';

/** Long enough to read why the page is leaving, short enough not to wait. */
const REDIRECT_DELAY_MS = 900;

export function AccountPage() {
  const session = useSession();

  useEffect(() => {
    document.title = 'Account · Dropsite';
  }, []);

  useEffect(() => {
    if (session.status !== 'signed-out') return;
    const timer = window.setTimeout(() => window.location.replace(signInHref('sign-in', ACCOUNT_PATH)), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [session.status]);

  return (
    <>
      <SiteHeader isLandingPage={false} />
      <main className="account container" aria-busy={session.status === 'loading'}>
        {session.status === 'signed-in' ? (
          <AccountSettings creator={session.creator} />
        ) : session.status === 'signed-out' ? (
          <div className="account__message">
            <h1>Please sign in to see your account</h1>
            <p role="status">Redirecting...</p>
          </div>
        ) : session.status === 'error' ? (
          <SessionCheckFailed className="account__message" />
        ) : (
          <div className="account__message" role="status">
            <span className="account__spinner" aria-hidden="true" />
            <span className="visually-hidden">Checking your sign-in…</span>
          </div>
        )}
      </main>
      <SiteFooter />
    </>
  );
}

type TLoad = { status: 'loading' } | { status: 'ready'; account: TAccountResponse } | { status: 'failed'; message: string };

function AccountSettings({ creator }: { creator: TCreatorPublic }) {
  const [load, setLoad] = useState<TLoad>({ status: 'loading' });
  const reload = useCallback(async () => {
    try {
      setLoad({ status: 'ready', account: await authApi.fetchAccount() });
    } catch (error) {
      setLoad({ status: 'failed', message: failureMessage(error) });
    }
  }, []);
  useEffect(() => void reload(), [reload]);

  const account = load.status === 'ready' ? load.account : null;
  const current = account?.creator ?? creator;
  const hasPassword = account?.hasPassword ?? true;

  return (
    <>
      <header className="account__head">
        <Avatar creator={current} size="large" />
        <div>
          <h1 className="account__title">Account</h1>
          <p className="account__lede">{current.email}</p>
        </div>
      </header>

      {load.status === 'failed' && (
        <p className="auth-form__error ui-alert account__load-error" role="alert">
          <AlertIcon size={16} />
          Your account could not be loaded: {load.message}{' '}
          <button type="button" className="auth-form__inline-link" onClick={() => void reload()}>
            Try again
          </button>
        </p>
      )}

      <div className="account__sections">
        <ProfileSection creator={current} onSaved={reload} />
        <EmailSection creator={current} pendingEmail={account?.pendingEmail ?? null} hasPassword={hasPassword} onChanged={reload} />
        <PasswordSection email={current.email} hasPassword={hasPassword} onSaved={reload} />
        <SessionsSection sessions={account?.sessions ?? null} onChanged={reload} />
        <DeleteSection email={current.email} hasPassword={hasPassword} />
      </div>
    </>
  );
}
