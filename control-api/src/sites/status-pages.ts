/** Small self-contained pages for the states of a site that has no HTML to show yet, or any more. */
import { escapeHtml } from '../http/escape-html.ts';

const STYLE = `
:root{color-scheme:light dark;--bg:#f8f7f4;--card:#fff;--text:#1c1b19;--muted:#625f58;--accent:#e8492a;--link:#b8361b;--track:#ebe8e1;--border:#e6e2d9}
@media (prefers-color-scheme:dark){:root{--bg:#141311;--card:#1d1c19;--text:#f3f1ec;--muted:#a9a59c;--accent:#ff6b4a;--link:#ff8a6e;--track:#2e2c28;--border:#2e2c28}}
*{box-sizing:border-box}html,body{margin:0;min-height:100%}
body{min-height:100vh;min-height:100dvh;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:20px;background:var(--bg);color:var(--text);font:16px/1.55 ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;padding:24px;-webkit-font-smoothing:antialiased}
main{background:var(--card);border:1px solid var(--border);border-radius:16px;padding:40px 36px;max-width:460px;width:100%;text-align:center;box-shadow:0 1px 2px rgba(0,0,0,.06),0 12px 32px rgba(0,0,0,.08)}
@media (max-width:420px){body{padding:16px}main{padding:32px 22px}}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 8px;letter-spacing:-.01em;text-wrap:balance}p{margin:0;color:var(--muted);text-wrap:pretty}
.site-title{font-size:.875rem;font-weight:600;color:var(--text);margin:0 0 6px;overflow-wrap:anywhere}
.ask{margin-top:16px}.ask strong{color:var(--text);font-weight:600}
footer{font-size:.8125rem;color:var(--muted)}footer a{color:var(--text);font-weight:650;text-decoration:none}footer a:hover{text-decoration:underline}
a:focus-visible{outline:2px solid var(--link);outline-offset:2px;border-radius:2px}
.bar{height:6px;border-radius:3px;background:var(--track);overflow:hidden;margin:24px 0 10px}
.bar span{display:block;height:100%;background:var(--accent);border-radius:3px;transition:width .6s ease}
.stage{font-size:.875rem}main a{color:var(--link);overflow-wrap:anywhere}
@media (prefers-reduced-motion:reduce){.bar span{transition:none}}`;

/** A status page: a card with the heading (`before` goes above it) and the body, and the product's name under it. */
function page(opts: { title: string; heading: string; body: string; before?: string; refreshSeconds?: number }): string {
  const refresh = opts.refreshSeconds ? `<meta http-equiv="refresh" content="${opts.refreshSeconds}">` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${refresh}<meta name="robots" content="noindex"><title>${escapeHtml(opts.title)}</title><style>${STYLE}</style></head><body><main>${opts.before ?? ''}<h1>${escapeHtml(opts.heading)}</h1>${opts.body}</main><footer><a href="/">Dropsite</a> · share files with a link</footer></body></html>`;
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

/**
 * What a page about a site that is gone may say of it: its title and who shared it, only for a site
 * that was public (a password-protected site's title was never shown to anyone without the password),
 * and the contact address the site itself showed.
 */
export interface TGoneSiteFacts {
  title: string;
  authorName: string;
  /** The site's public contact address ('' when it showed none). */
  email: string;
}

/** The facts of a site that may be shown on its expired or removed page: none for a password-protected one. */
export function goneSiteFacts(site: { title: string; author_name: string; password_hash: string | null }, email: string): TGoneSiteFacts | null {
  if (site.password_hash) return null;
  return { title: site.title.trim(), authorName: site.author_name.trim(), email: email.trim() };
}

/** 'Ask Mara Lind (mara@studio.example) for a new link.', or the sender when the site named no one. */
function whoToAsk(facts: TGoneSiteFacts | null): string {
  const who = facts?.authorName ? `<strong>${escapeHtml(facts.authorName)}</strong>` : 'the person who sent it to you';
  const mail = facts?.email ? ` at <a href="mailto:${escapeHtml(facts.email)}">${escapeHtml(facts.email)}</a>` : '';
  return `<p class="ask">If you still need these files, ask ${who}${mail} for a new link.</p>`;
}

const siteNameLine = (facts: TGoneSiteFacts | null) => (facts?.title ? `<p class="site-title">${escapeHtml(facts.title)}</p>` : '');

/** An expired site (410): its files are no longer available; who to ask for a new link. */
export function expiredPage(facts: TGoneSiteFacts | null = null): string {
  return page({
    title: 'This site has expired',
    heading: 'This site has expired',
    before: siteNameLine(facts),
    body: `<p>The link was set to work only until a date that has now passed, so its files can no longer be viewed or downloaded.</p>${whoToAsk(facts)}`,
  });
}

/** A site its creator deleted (410, until its record is removed): the same plain words. */
export function removedPage(facts: TGoneSiteFacts | null = null): string {
  return page({
    title: 'This site was removed',
    heading: 'This site was removed',
    before: siteNameLine(facts),
    body: `<p>The person who shared it has removed it, so its files can no longer be viewed or downloaded.</p>${whoToAsk(facts)}`,
  });
}

/** A demo site while it is built for the first time after the server started (503, the browser retries). */
export function demoPreparingPage(templateName: string, retrySeconds: number): string {
  return page({
    title: 'This demo is being prepared',
    heading: 'This demo is being prepared',
    refreshSeconds: retrySeconds,
    before: `<p class="site-title">${escapeHtml(templateName)} template</p>`,
    body: '<p>The example site for this template is being built right now. This page refreshes by itself in a few seconds.</p>',
  });
}

export function failedPage(): string {
  return page({
    title: 'Site could not be published',
    heading: 'This site could not be published',
    body: '<p>Something went wrong while preparing these files. The creator can publish them again.</p>',
  });
}

/** The password page's colours (the professional palette), light and dark. */
const PASSWORD_PALETTES = {
  light:
    '--bg:#f7f8fa;--card:#ffffff;--text:#111827;--muted:#6b7280;--border:#d5dae1;--primary:#1d4ed8;--primary-hover:#1e40af;--on-primary:#ffffff;--ring:rgb(29 78 216 / .35);--error:#b91c1c;--error-bg:#fef2f2;--icon-bg:#eff4ff;--cover:linear-gradient(135deg,#dbe4ff,#eef2ff 55%,#f7f8fa);color-scheme:light',
  dark: '--bg:#0c0e12;--card:#13161c;--text:#f3f4f6;--muted:#8b929e;--border:#2f3542;--primary:#7aa2ff;--primary-hover:#a3bfff;--on-primary:#0c0e12;--ring:rgb(122 162 255 / .4);--error:#f87171;--error-bg:rgb(248 113 113 / .1);--icon-bg:#1c2333;--cover:linear-gradient(135deg,#1b2440,#151a26 55%,#13161c);color-scheme:dark',
} as const;

const PASSWORD_STYLE = `
*{box-sizing:border-box}html,body{margin:0;min-height:100%}
body{min-height:100vh;min-height:100dvh;display:grid;place-items:center;background:var(--bg);color:var(--text);font:16px/1.6 ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;padding:24px;-webkit-font-smoothing:antialiased}
main{background:var(--card);border:1px solid var(--border);border-radius:16px;width:100%;max-width:400px;overflow:hidden;box-shadow:0 4px 8px rgb(17 24 39 / .04),0 12px 32px rgb(17 24 39 / .08)}
.cover{position:relative;height:112px;background:var(--cover);overflow:hidden}
.cover img{position:absolute;inset:0;width:100%;height:100%;object-fit:cover;filter:blur(14px) saturate(1.1);transform:scale(1.35)}
.cover::after{content:"";position:absolute;inset:0;background:linear-gradient(180deg,transparent 40%,var(--card))}
.body{position:relative;padding:0 32px 32px}
.icon{position:relative;width:52px;height:52px;border-radius:14px;display:grid;place-items:center;background:var(--icon-bg);color:var(--primary);margin:-26px auto 16px;border:3px solid var(--card);z-index:1}
.plain .body{padding-top:40px}.plain .icon{margin-top:0;border:0;width:48px;height:48px;border-radius:12px}
h1{font-size:clamp(1.25rem,4.2vw + .5rem,1.5625rem);line-height:1.3;letter-spacing:-.01em;margin:0 0 4px;text-align:center;text-wrap:balance;overflow-wrap:anywhere}
p.by{margin:0 0 12px;color:var(--muted);text-align:center;font-size:.9375rem;overflow-wrap:anywhere}
p.lead{margin:0 0 28px;color:var(--muted);text-align:center;text-wrap:balance}
.site p.lead{font-size:.9375rem;margin-top:12px}
@media (max-width:420px){body{padding:16px}.body{padding:0 22px 24px}.plain .body{padding-top:32px}.cover{height:96px}}
label{display:block;font-size:.875rem;font-weight:600;margin:0 0 6px}
input{display:block;width:100%;font:inherit;color:var(--text);background:var(--card);border:1px solid var(--border);border-radius:10px;padding:11px 14px;min-height:46px;transition:border-color .15s,box-shadow .15s}
input:focus{outline:none;border-color:var(--primary);box-shadow:0 0 0 3px var(--ring)}
input[aria-invalid=true]{border-color:var(--error)}
button{display:block;width:100%;margin-top:16px;font:inherit;font-weight:600;color:var(--on-primary);background:var(--primary);border:0;border-radius:10px;min-height:46px;cursor:pointer;transition:background .15s}
button:hover{background:var(--primary-hover)}button:focus-visible{outline:none;box-shadow:0 0 0 3px var(--card),0 0 0 5px var(--primary)}
.error{display:flex;gap:8px;align-items:flex-start;margin:0 0 16px;padding:10px 12px;border-radius:10px;background:var(--error-bg);color:var(--error);font-size:.875rem}
.error svg{flex:none;margin-top:2px}
@media (prefers-reduced-motion:reduce){*{transition:none!important}}`;

const LOCK_ICON =
  '<svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><rect x="4" y="11" width="16" height="10" rx="2"/><path d="M8 11V7a4 4 0 0 1 8 0v4"/></svg>';
const ALERT_ICON =
  '<svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><circle cx="12" cy="12" r="10"/><path d="M12 8v4M12 16h.01"/></svg>';

/** Only a JPEG data URI of the gate's own making is put in the page. */
const COVER_DATA_URI = /^data:image\/jpeg;base64,[A-Za-z0-9+/]+={0,2}$/;

export interface TPasswordPageOptions {
  slug: string;
  /** The site's colour mode: 'light' or 'dark' pin the page; 'auto' follows the visitor's colour scheme. */
  colorMode: 'auto' | 'light' | 'dark';
  /** The site's title and author, shown on the gate of a live locked site; absent for the plain gate. */
  title?: string;
  authorName?: string;
  /** A data URI of the site's first picture at a few pixels (password-gate.ts), shown blurred. */
  cover?: string | null;
  /** Shown above the field after a refused attempt. */
  error?: string;
}

/** The page a password-protected site shows until it is unlocked: one field, posted (never in the URL) to the unlock call. */
export function passwordPage(options: TPasswordPageOptions): string {
  const mode = options.colorMode === 'auto' ? null : options.colorMode;
  const palette = mode ? `:root{${PASSWORD_PALETTES[mode]}}` : `:root{${PASSWORD_PALETTES.light}}@media (prefers-color-scheme:dark){:root{${PASSWORD_PALETTES.dark}}}`;
  const error = options.error ? `<p class="error" role="alert" id="password-error">${ALERT_ICON}<span>${escapeHtml(options.error)}</span></p>` : '';
  const invalid = options.error ? ' aria-invalid="true" aria-describedby="password-error"' : '';
  const action = `/api/sites/${encodeURIComponent(options.slug)}/unlock`;
  const title = options.title?.trim() ?? '';
  const author = options.authorName?.trim() ?? '';
  const form = `<form method="post" action="${escapeHtml(action)}">${error}<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required maxlength="200" autofocus${invalid}><button type="submit">Unlock</button></form>`;
  const head = (pageTitle: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><meta name="color-scheme" content="${mode ?? 'light dark'}"><title>${escapeHtml(pageTitle)}</title><style>${palette}${PASSWORD_STYLE}</style></head>`;
  if (!title) {
    return `${head('Password protected')}<body><main class="plain"><div class="body"><div class="icon">${LOCK_ICON}</div><h1>This site is password protected</h1><p class="lead">Enter the password the sender gave you to view these files.</p>${form}</div></main></body></html>`;
  }
  const cover = options.cover && COVER_DATA_URI.test(options.cover) ? `<img src="${options.cover}" alt="" width="16" height="16">` : '';
  const by = author ? `<p class="by">By ${escapeHtml(author)}</p>` : '';
  return `${head(`${title} · Password protected`)}<body><main class="site"><div class="cover" aria-hidden="true">${cover}</div><div class="body"><div class="icon">${LOCK_ICON}</div><h1>${escapeHtml(title)}</h1>${by}<p class="lead">This site is password protected. Enter the password the sender gave you to view these files.</p>${form}</div></main></body></html>`;
}

/** An archive entry the API would not extract, for a browser that opened its link itself (a new tab). */
export function entryRefusedPage(message: string): string {
  return page({
    title: 'This file cannot be downloaded on its own',
    heading: 'This file cannot be downloaded on its own',
    body: `<p>${escapeHtml(message)}</p><p class="stage" style="margin-top:16px">Go back to the site to download the whole archive.</p>`,
  });
}

/** A site an operator took down (451): a short notice, nothing of the site; the recorded reason stays with the operator. */
export function takenDownPage(): string {
  return page({
    title: 'This site is unavailable',
    heading: 'This site is unavailable',
    body: '<p>This site was taken down by the operator of this service and its files can no longer be viewed or downloaded.</p><p class="ask">If you think this is a mistake, <a href="/contact">contact us</a>.</p>',
  });
}
