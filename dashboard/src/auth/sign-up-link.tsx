/**
 * 'Sign Up Free' wherever the anonymous creator is asked to keep their sites (the bell, the teaser
 * card, the email modal, the wizard): the sign-up form, coming back to this page when done. Once
 * signed in the same place leads to the dashboard, where the claim banner takes the sites over.
 */
import type { ReactNode } from 'react';
import { DASHBOARD_PATH, currentReturnPath, signInHref } from './auth-paths.ts';
import { useSession } from './session-store.ts';

interface TSignUpLinkProps {
  className?: string;
  children?: ReactNode;
  /** For a link inside a flow that must not be left (an upload running): the form opens in a new tab. */
  isNewTab?: boolean;
}

export function SignUpLink({ className, children = 'Sign Up Free', isNewTab = false }: TSignUpLinkProps) {
  const session = useSession();
  const newTab = isNewTab ? { target: '_blank', rel: 'noopener' } : {};
  if (session.status === 'signed-in')
    return (
      <a className={className} href={DASHBOARD_PATH} {...newTab}>
        Open Dashboard
      </a>
    );
  return (
    <a className={className} href={signInHref('sign-up', currentReturnPath())} {...newTab}>
      {children}
    </a>
  );
}
