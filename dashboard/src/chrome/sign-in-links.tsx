/** Sign In and Sign Up as the header shows them: in its bar, or large in the mobile menu. */
import type { MouseEventHandler } from 'react';

interface ISignInLinksProps {
  place: 'bar' | 'drawer';
  signInHref: string;
  signUpHref: string;
  /** The app opens its sign-in dialog instead of following the link. */
  onSignIn?: MouseEventHandler<HTMLAnchorElement>;
  onSignUp?: MouseEventHandler<HTMLAnchorElement>;
}

export function SignInLinks({ place, signInHref, signUpHref, onSignIn, onSignUp }: ISignInLinksProps) {
  const inBar = place === 'bar';
  return (
    <>
      <a className={inBar ? 'site-header__link' : 'button button--secondary button--large'} href={signInHref} onClick={onSignIn}>
        Sign In
      </a>
      <a className={inBar ? 'button button--primary site-header__sign-up' : 'button button--primary button--large'} href={signUpHref} onClick={onSignUp}>
        Sign Up
      </a>
    </>
  );
}
