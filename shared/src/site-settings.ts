/**
 * The zod schemas of a site's settings, each derived from the catalogue's rows
 * (./site-settings-catalogue.ts) with `pick`, `partial` and `extend`: a setting is added there only.
 */
import { z } from 'zod';
import {
  MANAGED_SITE_SETTING_KEYS,
  OPTIONAL_SITE_SETTING_KEYS,
  PUBLIC_SITE_SETTING_KEYS,
  SITE_SETTING_KEYS,
  SITE_SETTINGS,
  type TManagedSiteSettingKey,
  type TOptionalSiteSettingKey,
  type TPublicSiteSettingKey,
  type TSiteSettingKey,
  type TSiteSettingValue,
} from './site-settings-catalogue.ts';

export * from './site-settings-catalogue.ts';

type TRequiredKey = Exclude<TSiteSettingKey, TOptionalSiteSettingKey>;
type TValueSchema<K extends TSiteSettingKey> = z.ZodType<TSiteSettingValue<K>>;
type TTextKey = { [K in TSiteSettingKey]: (typeof SITE_SETTINGS)[K] extends { type: 'text' } ? K : never }[TSiteSettingKey];

/** The schema of one setting's value, from its row. */
function valueSchema<K extends TSiteSettingKey>(key: K): TValueSchema<K> {
  const row = SITE_SETTINGS[key] as (typeof SITE_SETTINGS)[TSiteSettingKey];
  switch (row.type) {
    case 'switch':
      return z.boolean() as unknown as TValueSchema<K>;
    case 'text':
      return z.string().max(row.maxLength) as unknown as TValueSchema<K>;
    default:
      return z.enum((row as { options: readonly [string, ...string[]] }).options) as unknown as TValueSchema<K>;
  }
}

const maskOf = <K extends TSiteSettingKey>(keys: readonly K[]) => Object.fromEntries(keys.map((key) => [key, true])) as { [P in K]: true };
const shapeOf = <K extends TSiteSettingKey, S>(keys: readonly K[], schemaOf: (key: K) => S) => Object.fromEntries(keys.map((key) => [key, schemaOf(key)])) as { [P in K]: S };
const isOptional = (key: TSiteSettingKey): key is TOptionalSiteSettingKey => (OPTIONAL_SITE_SETTING_KEYS as readonly string[]).includes(key);

/** Every setting's value as it is held, an optional one absent until chosen; no defaults. */
export const ZSiteSettingValuesSchema = z.object({
  ...shapeOf(
    SITE_SETTING_KEYS.filter((key): key is TRequiredKey => !isOptional(key)),
    (key) => valueSchema(key),
  ),
  ...shapeOf(OPTIONAL_SITE_SETTING_KEYS, (key) => valueSchema(key).optional()),
} as { [K in TRequiredKey]: TValueSchema<K> } & { [K in TOptionalSiteSettingKey]: z.ZodOptional<TValueSchema<K>> });

/** A site's settings as stored and as published: what is left out takes the catalogue's default. */
export const ZSiteSettingsSchema = ZSiteSettingValuesSchema.extend(
  shapeOf(
    SITE_SETTING_KEYS.filter((key): key is TRequiredKey => !isOptional(key)),
    (key) => valueSchema(key).default(SITE_SETTINGS[key].default as never),
  ) as { [K in TRequiredKey]: z.ZodDefault<TValueSchema<K>> },
);
export type TSiteSettings = z.infer<typeof ZSiteSettingsSchema>;

/** Strict: a page's settings are exactly the visitor-facing ones, so no owner-only field can be spread in. */
export const ZPublicSiteSettingsSchema = ZSiteSettingValuesSchema.pick(maskOf<TPublicSiteSettingKey>(PUBLIC_SITE_SETTING_KEYS)).strict();
export type TPublicSiteSettings = z.infer<typeof ZPublicSiteSettingsSchema>;

/** The settings the owner's forms start from (a setting given at publishing only is not among them). */
export const ZManagedSiteSettingsSchema = ZSiteSettingValuesSchema.pick(maskOf<TManagedSiteSettingKey>(MANAGED_SITE_SETTING_KEYS));
export type TManagedSiteSettings = z.infer<typeof ZManagedSiteSettingsSchema>;

const MANAGED_TEXT_KEYS = MANAGED_SITE_SETTING_KEYS.filter((key): key is Extract<TManagedSiteSettingKey, TTextKey> => SITE_SETTINGS[key].type === 'text');

/** The owner's edit: any of the managed settings, each may be sent alone; texts are trimmed. */
export const ZSiteSettingsPatchSchema = ZManagedSiteSettingsSchema.partial()
  .extend(shapeOf(MANAGED_TEXT_KEYS, (key) => z.string().trim().max(SITE_SETTINGS[key].maxLength).optional()))
  .strict();
