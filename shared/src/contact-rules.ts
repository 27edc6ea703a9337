/**
 * The creator's public contact details, their rules without zod (the schemas are in ./contact-info.ts) (spec 2.4 footer, spec 3 contactInfo): one rule for the
 * wizard's fields and the server. Links are stored as https URLs: a bare domain becomes
 * https://domain, and a handle ('@mira', 'mira') becomes the profile URL on its network.
 */

export const CONTACT_LINK_NETWORKS = ['website', 'instagram', 'twitter', 'linkedin', 'github'] as const;
export type TContactLinkNetwork = (typeof CONTACT_LINK_NETWORKS)[number];
export const CONTACT_FIELDS = ['email', ...CONTACT_LINK_NETWORKS] as const;
export type TContactField = (typeof CONTACT_FIELDS)[number];

export const CONTACT_EMAIL_MAX_LENGTH = 254;
export const CONTACT_LINK_MAX_LENGTH = 2048;

/** Where a handle's profile lives, and the hosts a pasted profile link may be on. */
const PROFILES: Record<Exclude<TContactLinkNetwork, 'website'>, { base: string; hosts: string[]; handle: RegExp }> = {
  // Instagram usernames: letters, digits, dots and underscores, at most 30, never starting or ending with a dot.
  instagram: { base: 'https://instagram.com/', hosts: ['instagram.com'], handle: /^(?!\.)(?!.*\.\.)[A-Za-z0-9._]{1,30}(?<!\.)$/ },
  twitter: { base: 'https://x.com/', hosts: ['x.com', 'twitter.com'], handle: /^[A-Za-z0-9_]{1,15}$/ },
  linkedin: { base: 'https://www.linkedin.com/in/', hosts: ['linkedin.com'], handle: /^[A-Za-z0-9][A-Za-z0-9-]{1,99}$/ },
  github: { base: 'https://github.com/', hosts: ['github.com'], handle: /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/ },
};

export const CONTACT_MESSAGES: Record<TContactField, string> = {
  email: 'Enter an email address like name@example.com.',
  website: 'Enter a web address like https://example.com.',
  instagram: 'Enter an Instagram handle like @name, or an https://instagram.com/ link.',
  twitter: 'Enter a Twitter handle like @name, or an https://x.com/ link.',
  linkedin: 'Enter a LinkedIn profile name, or an https://www.linkedin.com/in/ link.',
  github: 'Enter a GitHub username, or an https://github.com/ link.',
};

/** One address and nothing else, so a mailto: link cannot carry headers or a second recipient. */
const CONTACT_EMAIL = /^[^\s@<>"'(),;:\\[\]?&=%/]+@[^\s@<>"'(),;:\\[\]?&=%/]+\.[^\s@<>"'(),;:\\[\]?&=%/]+$/;

/** Whether a contact email is one plain address (at most 254 characters). */
export function isContactEmail(text: string): boolean {
  return text.length <= CONTACT_EMAIL_MAX_LENGTH && CONTACT_EMAIL.test(text);
}

const DOMAIN_START = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+(?=$|[/?#])/;

function isOnHost(hostname: string, hosts: string[]): boolean {
  return hosts.some((h) => hostname === h || hostname.endsWith(`.${h}`));
}

/** An https URL with a dotted host and no user name or password in it, as its canonical text; else null. */
function parseHttpsUrl(text: string): URL | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password || !url.hostname.includes('.')) return null;
  return url;
}

/**
 * A contact link as stored and shown: '' for none, the https URL for a valid entry, null when it
 * is not valid. http:// and other schemes (javascript:, data:, mailto:) are refused.
 */
export function normalizeContactLink(network: TContactLinkNetwork, value: string): string | null {
  const text = value.trim();
  if (text === '') return '';
  if (text.length > CONTACT_LINK_MAX_LENGTH || /\s/.test(text)) return null;
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(text);
  if (!hasScheme && network !== 'website') {
    const profile = PROFILES[network];
    const handle = text.replace(/^@/, '');
    if (profile.handle.test(handle)) return `${profile.base}${handle}`;
  }
  const candidate = hasScheme ? text : DOMAIN_START.test(text) ? `https://${text}` : null;
  if (candidate === null) return null;
  const url = parseHttpsUrl(candidate);
  if (url === null) return null;
  if (network !== 'website' && !isOnHost(url.hostname.toLowerCase(), PROFILES[network].hosts)) return null;
  return url.href;
}

/** Field by field: the message for what is not valid (empty fields are fine: every one is optional). */
export function findContactInfoProblems(info: Partial<Record<TContactField, string>>): Partial<Record<TContactField, string>> {
  const problems: Partial<Record<TContactField, string>> = {};
  const email = (info.email ?? '').trim();
  if (email !== '' && !isContactEmail(email)) problems.email = CONTACT_MESSAGES.email;
  for (const network of CONTACT_LINK_NETWORKS) {
    if (normalizeContactLink(network, info[network] ?? '') === null) problems[network] = CONTACT_MESSAGES[network];
  }
  return problems;
}

/** No contact details: every field empty. */
export const EMPTY_CONTACT_INFO: Readonly<Record<TContactField, string>> = { email: '', website: '', instagram: '', twitter: '', linkedin: '', github: '' };

/** Stored contact details as a page shows them: an invalid email or link (stored by older code) is left out. */
export function toPublicContactInfo(info: Partial<Record<TContactField, string>>): Record<TContactField, string> {
  const email = (info.email ?? '').trim();
  const links = Object.fromEntries(CONTACT_LINK_NETWORKS.map((n) => [n, normalizeContactLink(n, info[n] ?? '') ?? ''])) as Record<TContactLinkNetwork, string>;
  return { email: isContactEmail(email) ? email : '', ...links };
}
