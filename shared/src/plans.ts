/** The billing catalogue (companion spec, section 9). -1 means unlimited. */
export const PLAN_IDS = ['free', 'pro_monthly', 'business_monthly'] as const;
export type TPlanId = (typeof PLAN_IDS)[number];

export interface TPlanLimits {
  storage: number;
  projects: number;
  collaborators: number;
  api_requests: number;
}

/**
 * One line of a plan's list. `comingSoon`: not built yet; shown marked 'Coming soon' and never a
 * reason to buy. Everything else is what the product does today.
 */
export interface TPlanFeature {
  label: string;
  comingSoon?: true;
}

export interface TPlan {
  id: TPlanId;
  name: string;
  price: number;
  currency: 'USD';
  /** One line: who the plan is for. */
  summary: string;
  features: readonly TPlanFeature[];
  limits: TPlanLimits;
  /** Largest single delivery (sum of its files) in bytes. */
  maxDeliveryBytes: number;
}

const GB = 1024 ** 3;

export const PLANS: Record<TPlanId, TPlan> = {
  free: {
    id: 'free',
    name: 'Free',
    price: 0,
    currency: 'USD',
    summary: 'For trying Dropsite with real clients.',
    features: [
      { label: 'Basic file delivery: a link, a QR code and a viewer for every file' },
      { label: '5 GB storage' },
      { label: 'Powered by Dropsite on your sites' },
      { label: 'Basic analytics: views and downloads' },
      { label: 'Password protection and expiry dates' },
    ],
    limits: { storage: 5_368_709_120, projects: 3, collaborators: 1, api_requests: 0 },
    maxDeliveryBytes: 2 * GB,
  },
  pro_monthly: {
    id: 'pro_monthly',
    name: 'Pro',
    price: 19,
    currency: 'USD',
    summary: 'For working photographers and designers.',
    features: [
      { label: 'Everything in Free' },
      { label: '100 GB storage' },
      { label: 'Advanced analytics: daily charts, visitors, CSV export' },
      { label: 'Comments & feedback' },
      { label: 'Client favorites and approvals' },
      { label: 'Email notifications' },
      { label: 'Replace files under the same link' },
      { label: 'Custom branding', comingSoon: true },
    ],
    limits: { storage: 100 * GB, projects: -1, collaborators: 1, api_requests: 1000 },
    maxDeliveryBytes: 25 * GB,
  },
  business_monthly: {
    id: 'business_monthly',
    name: 'Business',
    price: 49,
    currency: 'USD',
    summary: 'For studios and agencies that deliver as a team.',
    features: [
      { label: 'Everything in Pro' },
      { label: 'Unlimited storage' },
      { label: 'Multi-user access', comingSoon: true },
      { label: 'Custom domain', comingSoon: true },
      { label: 'API access', comingSoon: true },
      { label: 'CRM integrations', comingSoon: true },
    ],
    limits: { storage: -1, projects: -1, collaborators: -1, api_requests: -1 },
    maxDeliveryBytes: 100 * GB,
  },
};
