/** The email modal's four variants (spec 2.7): title, subtitle, three benefits, call to action, skip text. */
import { ANONYMOUS_WINDOW_DAYS, type TEmailTrigger } from '@dropsite/shared';

export interface TEmailPromptCopy {
  title: string;
  subtitle: string;
  benefits: [string, string, string];
  cta: string;
  skip: string;
}

export const EMAIL_PROMPT_COPY: Record<TEmailTrigger, TEmailPromptCopy> = {
  first_engagement: {
    title: 'Someone just engaged with your site',
    subtitle: 'A visitor reacted to your files. Add your email so feedback like this never slips past you.',
    benefits: [
      'Hear when clients comment, favourite or approve',
      `Keep every reaction beyond the ${ANONYMOUS_WINDOW_DAYS}-day window`,
      'Reply to feedback while it is still fresh',
    ],
    cta: 'Keep me posted',
    skip: 'Not now',
  },
  high_views: {
    title: 'Your site is getting noticed',
    subtitle: 'People keep coming back to your files. Save your email and the numbers stay yours.',
    benefits: [
      'See views, downloads and favourites per file',
      `Keep your analytics beyond the ${ANONYMOUS_WINDOW_DAYS}-day window`,
      'Find out which files your audience likes best',
    ],
    cta: 'Save my stats',
    skip: 'Maybe later',
  },
  return_visit: {
    title: 'Keep your sites with you',
    subtitle: 'Your sites are live. Add your email so they, and everything visitors do on them, stay linked to you.',
    benefits: ['Pick up your sites on any device', `Keep visitor activity beyond the ${ANONYMOUS_WINDOW_DAYS}-day window`, 'Get told when clients leave feedback'],
    cta: 'Keep my sites',
    skip: 'Continue without',
  },
  success_page: {
    title: 'Your site is live. Keep it yours.',
    subtitle: 'Add your email and we will link this site, and what visitors do on it, to you.',
    benefits: [
      'Know the moment someone views or comments',
      `Keep your sites and their activity beyond ${ANONYMOUS_WINDOW_DAYS} days`,
      'Claim them into a free account whenever you like',
    ],
    cta: 'Save my site',
    skip: 'Skip for now',
  },
};
