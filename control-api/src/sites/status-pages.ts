/** Small self-contained pages for the states of a site that has no HTML to show yet, or any more. */

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const STYLE = `
:root{color-scheme:light dark;--bg:#f8f7f4;--card:#fff;--text:#1c1b19;--muted:#625f58;--accent:#e8492a;--track:#ebe8e1}
@media (prefers-color-scheme:dark){:root{--bg:#141311;--card:#1d1c19;--text:#f3f1ec;--muted:#a9a59c;--accent:#ff6b4a;--track:#2e2c28}}
*{box-sizing:border-box}html,body{margin:0;height:100%}
body{display:grid;place-items:center;background:var(--bg);color:var(--text);font:16px/1.55 ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;padding:24px}
main{background:var(--card);border-radius:16px;padding:40px 36px;max-width:440px;width:100%;text-align:center;box-shadow:0 1px 2px rgba(0,0,0,.06),0 12px 32px rgba(0,0,0,.08)}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 8px;letter-spacing:-.01em}p{margin:0;color:var(--muted)}
.bar{height:6px;border-radius:3px;background:var(--track);overflow:hidden;margin:24px 0 10px}
.bar span{display:block;height:100%;background:var(--accent);border-radius:3px;transition:width .6s ease}
.stage{font-size:.875rem}a{color:var(--accent)}
@media (prefers-reduced-motion:reduce){.bar span{transition:none}}`;

function page(opts: { title: string; heading: string; body: string; refreshSeconds?: number }): string {
  const refresh = opts.refreshSeconds ? `<meta http-equiv="refresh" content="${opts.refreshSeconds}">` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${refresh}<meta name="robots" content="noindex"><title>${escapeHtml(opts.title)}</title><style>${STYLE}</style></head><body><main>${`<h1>${escapeHtml(opts.heading)}</h1>`}${opts.body}</main></body></html>`;
}

export function buildingPage(progress: number, stage: string): string {
  const pct = Math.max(0, Math.min(100, Math.round(progress)));
  return page({
    title: 'Preparing your site…',
    heading: 'Preparing your site…',
    refreshSeconds: 2,
    body: `<p>Your files are being optimised. This page refreshes by itself.</p><div class="bar" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow="${pct}" aria-label="Build progress"><span style="width:${pct}%"></span></div><p class="stage">${escapeHtml(stage || 'Queued')} · ${pct}%</p>`,
  });
}

export function notFoundPage(): string {
  return page({ title: 'Site not found', heading: 'Site not found', body: '<p>This link does not lead to a site. Check the address, or ask the sender for a new link.</p>' });
}

export function expiredPage(): string {
  return page({ title: 'This site has expired', heading: 'This site has expired', body: '<p>The creator set this delivery to expire, and its files are no longer available. Ask the sender for a new link.</p>' });
}

export function lockedPage(): string {
  return page({ title: 'Password protected', heading: 'This site is password protected', body: '<p>Ask the sender for access to this delivery.</p>' });
}

export function failedPage(): string {
  return page({ title: 'Site could not be published', heading: 'This site could not be published', body: '<p>Something went wrong while preparing these files. The creator can publish them again.</p>' });
}
