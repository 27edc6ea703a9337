/**
 * The creator's public contact details (spec 2.4 footer, spec 3 contactInfo): one rule for the
 * wizard's fields and the server. Links are stored as https URLs: a bare domain becomes
 * https://domain, and a handle ('@mira', 'mira') becomes the profile URL on its network.
 */
import { z } from 'zod';
import { CONTACT_EMAIL_MAX_LENGTH, CONTACT_LINK_MAX_LENGTH, CONTACT_MESSAGES, isContactEmail, normalizeContactLink, type TContactLinkNetwork } from './contact-rules.ts';

export * from './contact-rules.ts';

const contactLink = (network: TContactLinkNetwork) =>
  z
    .string()
    .max(CONTACT_LINK_MAX_LENGTH)
    .transform((value, ctx) => {
      const link = normalizeContactLink(network, value);
      if (link === null) {
        ctx.addIssue({ code: 'custom', message: CONTACT_MESSAGES[network] });
        return z.NEVER;
      }
      return link;
    })
    .default('');

/** Contact details as a creator sends them (wizard and every publish call); links come out as https URLs. */
export const ZContactInfoInputSchema = z.object({
  email: z
    .string()
    .trim()
    .max(CONTACT_EMAIL_MAX_LENGTH, CONTACT_MESSAGES.email)
    .refine((v) => v === '' || isContactEmail(v), CONTACT_MESSAGES.email)
    .default(''),
  website: contactLink('website'),
  instagram: contactLink('instagram'),
  twitter: contactLink('twitter'),
  linkedin: contactLink('linkedin'),
  github: contactLink('github'),
});
export type TContactInfoInput = z.input<typeof ZContactInfoInputSchema>;

/** The contact details a public page shows: exactly these six texts, nothing else. */
export const ZPublicContactInfoSchema = z.strictObject({
  email: z.string(),
  website: z.string(),
  instagram: z.string(),
  twitter: z.string(),
  linkedin: z.string(),
  github: z.string(),
});
export type TPublicContactInfo = z.infer<typeof ZPublicContactInfoSchema>;
