/** What a signed-in page shows when the server did not answer whether anyone is signed in: why, and a retry. */
import { getSessionStore } from './session-store.ts';

export function SessionCheckFailed({ className }: { className: string }) {
  return (
    <div className={className} role="alert">
      <h1>We couldn’t check your sign-in</h1>
      <p>The server did not answer. Check your connection and try again.</p>
      <button type="button" className="button button--secondary" onClick={() => void getSessionStore().refresh()}>
        Try again
      </button>
    </div>
  );
}
