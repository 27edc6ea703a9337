/** The billing catalogue (companion spec, section 9). -1 means unlimited. */
export const PLAN_IDS = ['free', 'pro_monthly', 'business_monthly'] as const;
export type TPlanId = (typeof PLAN_IDS)[number];

export interface TPlanLimits {
  storage: number;
  projects: number;
  collaborators: number;
  api_requests: number;
}

export interface TPlan {
  id: TPlanId;
  name: string;
  price: number;
  currency: 'USD';
  features: string[];
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
    features: ['Basic file delivery', '5 GB storage', 'Dropsite branding', 'Basic analytics', 'Up to 3 active delivery links'],
    limits: { storage: 5_368_709_120, projects: 3, collaborators: 1, api_requests: 0 },
    maxDeliveryBytes: 2 * GB,
  },
  pro_monthly: {
    id: 'pro_monthly',
    name: 'Pro',
    price: 19,
    currency: 'USD',
    features: [
      'Everything in Free',
      'Custom branding',
      '100 GB storage',
      'Advanced analytics',
      'Unlimited links',
      'Comments & feedback',
      'Client favorites',
      'Email notifications',
    ],
    limits: { storage: 100 * GB, projects: -1, collaborators: 1, api_requests: 1000 },
    maxDeliveryBytes: 25 * GB,
  },
  business_monthly: {
    id: 'business_monthly',
    name: 'Business',
    price: 49,
    currency: 'USD',
    features: ['Everything in Pro', 'Unlimited storage', 'CRM integrations', 'API access', 'Priority support', 'Multi-user access', 'Custom domain'],
    limits: { storage: -1, projects: -1, collaborators: -1, api_requests: -1 },
    maxDeliveryBytes: 100 * GB,
  },
};
