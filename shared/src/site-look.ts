/**
 * A site's look, chosen by its creator (never by a visitor): a visual style, a colour mode, a hero
 * layout and whether visitors may switch light/dark themselves. 'auto' follows the visitor's
 * prefers-color-scheme; 'light' and 'dark' pin the site to one variant of its style. Each template's
 * default is the look of its demo site. Without zod, so the wizard's first screen can use it.
 *
 * The older `theme` field (`{style}-{light|dark}`) stays readable and writable: it names a style and
 * a pinned mode, and a site's `theme` is its style with the variant a visitor sees first without a
 * preference (light, unless the site is pinned dark).
 */
import { HERO_LAYOUTS, THEME_MODES, THEME_STYLES } from './site-rules.ts';
import { TEMPLATE_IDS, type TTemplateId } from './templates.ts';

export const COLOR_MODES = ['auto', 'light', 'dark'] as const;
export type TThemeStyleName = (typeof THEME_STYLES)[number];
export type TColorMode = (typeof COLOR_MODES)[number];
export type THeroLayoutName = (typeof HERO_LAYOUTS)[number];

export interface TSiteLook {
  style: TThemeStyleName;
  colorMode: TColorMode;
  heroLayout: THeroLayoutName;
  /** Whether visitors get a light/dark toggle (starting from the mode above). */
  visitorModeToggle: boolean;
}

/** What the creator sees each choice called. */
export const THEME_STYLE_LABELS: Record<TThemeStyleName, string> = {
  professional: 'Professional',
  creative: 'Creative',
  nature: 'Nature',
  minimal: 'Minimal',
  elegant: 'Elegant',
};
export const COLOR_MODE_LABELS: Record<TColorMode, string> = { auto: 'Automatic', light: 'Light', dark: 'Dark' };
export const COLOR_MODE_HINTS: Record<TColorMode, string> = {
  auto: 'Follows each visitor’s device setting',
  light: 'Always light',
  dark: 'Always dark',
};
export const HERO_LAYOUT_LABELS: Record<THeroLayoutName, string> = { minimal: 'Minimal', centered: 'Centered', split: 'Split', featured: 'Featured' };

/** Each template's look: the one its demo site shows (scripts/src/demo/projects use these). */
export const TEMPLATE_LOOKS: Record<TTemplateId, TSiteLook> = {
  universal: { style: 'nature', colorMode: 'auto', heroLayout: 'minimal', visitorModeToggle: false },
  'photo-gallery': { style: 'elegant', colorMode: 'auto', heroLayout: 'minimal', visitorModeToggle: false },
  'portfolio-resume': { style: 'minimal', colorMode: 'auto', heroLayout: 'minimal', visitorModeToggle: false },
  'event-template': { style: 'creative', colorMode: 'dark', heroLayout: 'minimal', visitorModeToggle: false },
  'pitch-template': { style: 'professional', colorMode: 'dark', heroLayout: 'minimal', visitorModeToggle: false },
  'product-template': { style: 'professional', colorMode: 'auto', heroLayout: 'minimal', visitorModeToggle: false },
  'case-study-template': { style: 'professional', colorMode: 'dark', heroLayout: 'minimal', visitorModeToggle: false },
  'client-delivery': { style: 'minimal', colorMode: 'dark', heroLayout: 'minimal', visitorModeToggle: false },
};

/** A template's look; an unknown template gets the universal one. */
export function templateLook(template: string): TSiteLook {
  return (TEMPLATE_IDS as readonly string[]).includes(template) ? TEMPLATE_LOOKS[template as TTemplateId] : TEMPLATE_LOOKS.universal;
}

export function isThemeStyle(value: unknown): value is TThemeStyleName {
  return typeof value === 'string' && (THEME_STYLES as readonly string[]).includes(value);
}
export function isColorMode(value: unknown): value is TColorMode {
  return typeof value === 'string' && (COLOR_MODES as readonly string[]).includes(value);
}
export function isHeroLayout(value: unknown): value is THeroLayoutName {
  return typeof value === 'string' && (HERO_LAYOUTS as readonly string[]).includes(value);
}

/**
 * The style and pinned mode an older `theme` value names: 'nature-dark' → nature, dark; a bare style
 * ('creative') → that style, automatic; a bare mode ('dark') → professional, that mode; null for
 * anything else.
 */
export function lookOfTheme(theme: string): Pick<TSiteLook, 'style' | 'colorMode'> | null {
  const value = theme.trim().toLowerCase();
  const [style, mode, ...rest] = value.split('-');
  if (rest.length === 0 && isThemeStyle(style) && mode !== undefined && (THEME_MODES as readonly string[]).includes(mode)) return { style, colorMode: mode as TColorMode };
  if (isThemeStyle(value)) return { style: value, colorMode: 'auto' };
  if (value === 'light' || value === 'dark') return { style: 'professional', colorMode: value };
  return null;
}

/** The `theme` a look is stored and reported as: the style with its pinned variant (light for automatic). */
export function themeOfLook(look: Pick<TSiteLook, 'style' | 'colorMode'>): `${TThemeStyleName}-${(typeof THEME_MODES)[number]}` {
  return `${look.style}-${look.colorMode === 'dark' ? 'dark' : 'light'}`;
}

/** The choices a creator may send: each optional, `theme` the older way of naming style and mode. */
export interface TSiteLookChoice {
  style?: TThemeStyleName | undefined;
  colorMode?: TColorMode | undefined;
  heroLayout?: THeroLayoutName | undefined;
  visitorModeToggle?: boolean | undefined;
  theme?: string | undefined;
}

/**
 * A look from a base (the template's default, or the site's current look) and the creator's
 * choices. An explicit style or colour mode wins over what `theme` names.
 */
export function resolveSiteLook(base: TSiteLook, choice: TSiteLookChoice): TSiteLook {
  const fromTheme = choice.theme === undefined ? null : lookOfTheme(choice.theme);
  return {
    style: choice.style ?? fromTheme?.style ?? base.style,
    colorMode: choice.colorMode ?? fromTheme?.colorMode ?? base.colorMode,
    heroLayout: choice.heroLayout ?? base.heroLayout,
    visitorModeToggle: choice.visitorModeToggle ?? base.visitorModeToggle,
  };
}

/**
 * A stored site's look from its columns. Sites saved before the colour mode existed (null) keep a
 * pinned dark theme dark and follow the visitor otherwise (their light theme was no choice: every
 * site got it); a missing hero layout is the template's.
 */
export function storedSiteLook(row: {
  template: string;
  theme: string;
  color_mode: string | null;
  hero_layout: string | null;
  visitor_mode_toggle: number | boolean | null;
}): TSiteLook {
  const templateDefault = templateLook(row.template);
  const fromTheme = lookOfTheme(row.theme);
  const colorMode: TColorMode = isColorMode(row.color_mode) ? row.color_mode : fromTheme?.colorMode === 'dark' ? 'dark' : 'auto';
  return {
    style: fromTheme?.style ?? templateDefault.style,
    colorMode,
    heroLayout: isHeroLayout(row.hero_layout) ? row.hero_layout : templateDefault.heroLayout,
    visitorModeToggle: row.visitor_mode_toggle === true || row.visitor_mode_toggle === 1,
  };
}

const LOOK_CHOICE_KEYS = ['style', 'colorMode', 'heroLayout', 'visitorModeToggle', 'theme'] as const;

/** Only the look choices a request actually made (for keeping with an upload until it is published). */
export function lookChoiceOf<T extends TSiteLookChoice>(input: T): Partial<Pick<T, (typeof LOOK_CHOICE_KEYS)[number]>> {
  return Object.fromEntries(LOOK_CHOICE_KEYS.filter((key) => input[key] !== undefined).map((key) => [key, input[key]])) as Partial<Pick<T, (typeof LOOK_CHOICE_KEYS)[number]>>;
}
