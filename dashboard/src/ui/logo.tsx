/** The Dropsite wordmark: a drop in a rounded tile, then the name. */
export function Logo() {
  return (
    <a className="logo" href="/" aria-label="Dropsite home">
      <svg className="logo__mark" width="28" height="28" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="9" className="logo__tile" />
        <path d="M16 6.5c-3.6 4.6-6.5 8.3-6.5 11.6a6.5 6.5 0 0 0 13 0C22.5 14.8 19.6 11.1 16 6.5Z" className="logo__drop" />
      </svg>
      <span className="logo__name">Dropsite</span>
    </a>
  );
}
