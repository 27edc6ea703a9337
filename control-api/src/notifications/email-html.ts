/**
 * The HTML part of every email, rendered from React components: React escapes every text and
 * attribute a component is given, so no message builds markup from strings by hand. Components are
 * written with createElement, since the API runs its TypeScript as Node strips it (no JSX).
 */
import { createElement as h, type CSSProperties, type ReactElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

const BODY_STYLE: CSSProperties = { fontFamily: "system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif", color: '#111827', lineHeight: 1.6 };
export const HEADING_STYLE: CSSProperties = { fontSize: 20, margin: '0 0 16px' };
export const LINK_STYLE: CSSProperties = { color: '#1d4ed8' };
export const FOOTNOTE_STYLE: CSSProperties = { color: '#6b7280', fontSize: 13 };

/** A whole email document: the body in the mails' one font and colour. */
export function EmailDocument({ children }: { children: ReactNode }): ReactElement {
  return h('html', null, h('body', { style: BODY_STYLE }, children));
}

/** The HTML of an email component; a document (an `html` element) gets its doctype. */
export function renderEmailHtml(email: ReactElement): string {
  const markup = renderToStaticMarkup(email);
  return markup.startsWith('<html') ? `<!doctype html>${markup}` : markup;
}
