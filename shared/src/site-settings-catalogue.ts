/**
 * The site settings catalogue: one row per setting a creator chooses for a site, the one place a
 * setting is declared. Its row says what values it takes, what a new site starts with, whether it
 * reaches the visitor's page and which plan feature it needs. Everything else is derived from the
 * rows: the zod schemas (./site-settings.ts: stored and published, the page's copy, the owner's edit
 * and view), the defaults, the render model's copy and the plan check below.
 *
 * Without zod, so the upload wizard's first screen (its defaults and Pro labels) loads none; the
 * schemas are built from these rows in ./site-settings.ts.
 */
import { PRO_FEATURES, type TProFeature } from './plans.ts';

/** What a setting holds: an on/off switch, a text of at most `maxLength` characters, or one of `options`. */
type TSettingValue =
  | { type: 'switch'; default: boolean }
  | { type: 'text'; maxLength: number; default: string }
  | { type: 'choice'; options: readonly [string, ...string[]]; labels: Readonly<Record<string, string>>; default: string };

type TSettingRow = TSettingValue & {
  /** Reaches the visitor's page (the render model and its islands' props). Anything else stays the owner's. */
  isPublic: boolean;
  /** The plan feature turning it on needs: the server refuses it on a plan without, the wizard labels it Pro. */
  feature?: TProFeature;
  /** False for a setting given at publishing only: the dashboard neither shows nor edits it. */
  isManaged?: false;
  /**
   * Absent until the creator chooses (a new site's settings, the publish call and the owner's view
   * leave it out); the page reads `default` meanwhile. For settings added after sites were
   * published, so every earlier site, client and stored draft stays as it was.
   */
  isOptional?: true;
};

export const SITE_SETTINGS = {
  enableFavorites: { type: 'switch', default: false, isPublic: true },
  enableComments: { type: 'switch', default: false, isPublic: true, feature: 'comments' },
  enableApprovals: { type: 'switch', default: false, isPublic: true, feature: 'approvals' },
  enableAnalytics: { type: 'switch', default: true, isPublic: true },
  enableNotifications: { type: 'switch', default: false, isPublic: false, feature: 'notifications' },
  /** Where notifications go; never shown on the site (the contact email is a separate, public field). */
  notificationEmail: { type: 'text', maxLength: 320, default: '', isPublic: false },
  slackWebhook: { type: 'text', maxLength: 2048, default: '', isPublic: false, isManaged: false },
  /** The order the page lists the files in: as the creator uploaded them, by name (numbers in order), or newest first. */
  fileOrder: {
    type: 'choice',
    options: ['upload', 'name', 'newest'],
    labels: { upload: 'As uploaded', name: 'By name', newest: 'Newest first' },
    default: 'upload',
    isPublic: true,
    isOptional: true,
  },
} as const satisfies Record<string, TSettingRow>;

type TRows = typeof SITE_SETTINGS;
export type TSiteSettingKey = keyof TRows;
type TValueOf<R> = R extends { type: 'switch' } ? boolean : R extends { type: 'text' } ? string : R extends { type: 'choice'; options: readonly (infer O)[] } ? O : never;
/** The value a setting holds. */
export type TSiteSettingValue<K extends TSiteSettingKey> = TValueOf<TRows[K]>;
type TKeysWhere<C> = { [K in TSiteSettingKey]: TRows[K] extends C ? K : never }[TSiteSettingKey];

export type TOptionalSiteSettingKey = TKeysWhere<{ isOptional: true }>;
export type TPublicSiteSettingKey = TKeysWhere<{ isPublic: true }>;
export type TManagedSiteSettingKey = Exclude<TSiteSettingKey, TKeysWhere<{ isManaged: false }>>;
/** The settings named by `K` as they are held: each present, an optional one when chosen. */
export type TSiteSettingValues<K extends TSiteSettingKey> = { [P in Exclude<K, TOptionalSiteSettingKey>]: TSiteSettingValue<P> } & {
  [P in Extract<K, TOptionalSiteSettingKey>]?: TSiteSettingValue<P>;
};

const keysWhere = <K extends TSiteSettingKey>(test: (row: TSettingRow) => boolean): readonly K[] =>
  (Object.keys(SITE_SETTINGS) as TSiteSettingKey[]).filter((key) => test(SITE_SETTINGS[key])) as K[];

export const SITE_SETTING_KEYS = keysWhere<TSiteSettingKey>(() => true);
/** The settings a visitor's page acts on. Notification settings (address, webhook) are the owner's only. */
export const PUBLIC_SITE_SETTING_KEYS = keysWhere<TPublicSiteSettingKey>((row) => row.isPublic);
/** The settings the dashboard shows and edits. */
export const MANAGED_SITE_SETTING_KEYS = keysWhere<TManagedSiteSettingKey>((row) => row.isManaged !== false);
export const OPTIONAL_SITE_SETTING_KEYS = keysWhere<TOptionalSiteSettingKey>((row) => row.isOptional === true);

/**
 * A site's settings when the creator chose none (optional settings left out). A plain object, not a
 * parse at load time: the dashboard runs zod without eval (its CSP), and a parse before that is
 * configured would make zod probe for eval.
 */
export const DEFAULT_SITE_SETTINGS = Object.fromEntries(
  SITE_SETTING_KEYS.filter((key) => !OPTIONAL_SITE_SETTING_KEYS.includes(key as TOptionalSiteSettingKey)).map((key) => [key, SITE_SETTINGS[key].default]),
) as Readonly<TSiteSettingValues<Exclude<TSiteSettingKey, TOptionalSiteSettingKey>>>;

/** The page's copy of a site's settings: every public setting, an optional one not chosen at its default. */
export function toPublicSiteSettings(settings: TSiteSettingValues<TPublicSiteSettingKey>): TSiteSettingValues<TPublicSiteSettingKey> {
  const source: Partial<Record<TPublicSiteSettingKey, unknown>> = settings;
  return Object.fromEntries(PUBLIC_SITE_SETTING_KEYS.map((key) => [key, source[key] ?? SITE_SETTINGS[key].default])) as TSiteSettingValues<TPublicSiteSettingKey>;
}
export const DEFAULT_PUBLIC_SITE_SETTINGS = toPublicSiteSettings(DEFAULT_SITE_SETTINGS);

/** The owner's view of a site's settings: the managed ones, an optional one only when chosen. */
export function toManagedSiteSettings(settings: TSiteSettingValues<TManagedSiteSettingKey>): TSiteSettingValues<TManagedSiteSettingKey> {
  const source: Partial<Record<TManagedSiteSettingKey, unknown>> = settings;
  return Object.fromEntries(MANAGED_SITE_SETTING_KEYS.filter((key) => source[key] !== undefined).map((key) => [key, source[key]])) as TSiteSettingValues<TManagedSiteSettingKey>;
}

type TFeatureSettings = { [F in TProFeature]: TKeysWhere<{ feature: F }> };
/** The site setting that turns each Pro feature on: what the server refuses and the wizard labels Pro. */
export const PRO_FEATURE_SETTINGS = Object.fromEntries(
  PRO_FEATURES.map((feature) => [feature, SITE_SETTING_KEYS.find((key) => (SITE_SETTINGS[key] as TSettingRow).feature === feature)]),
) as TFeatureSettings;
export type TProFeatureSetting = TFeatureSettings[TProFeature];

/** Whether a site setting is one only plans with `proFeatures` may turn on. */
export function isProFeatureSetting(setting: string): setting is TProFeatureSetting {
  return (Object.values(PRO_FEATURE_SETTINGS) as readonly string[]).includes(setting);
}

/**
 * The plan check of a settings change: for each Pro feature's switch, whether the change turns it on
 * (those already on stay as they are: a downgrade deletes nothing).
 */
export function proFeaturesTurnedOn(
  current: Partial<Record<TProFeatureSetting, unknown>>,
  change: Partial<Record<TProFeatureSetting, unknown>>,
): Record<TProFeatureSetting, boolean> {
  return Object.fromEntries(
    PRO_FEATURES.map((feature) => PRO_FEATURE_SETTINGS[feature]).map((setting) => [setting, change[setting] === true && current[setting] !== true]),
  ) as Record<TProFeatureSetting, boolean>;
}
