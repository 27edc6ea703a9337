/**
 * The ten themes of spec section 3: five visual styles (professional, creative, nature, minimal,
 * elegant), each light and dark, with the full token set (colors, typography, spacing, effects,
 * layout, shadows, gradients). The page turns them into CSS custom properties selected with
 * `data-theme` on <html>; with no theme set, the visitor's prefers-color-scheme picks the
 * professional light or dark theme. Fonts are system stacks: no font files, no third-party requests.
 */
import { DEFAULT_THEME_ID } from './constants.ts';
import type { TColorMode } from './site-look.ts';
import { THEME_MODES, THEME_STYLES } from './site-rules.ts';

export type TThemeStyle = (typeof THEME_STYLES)[number];
export type TThemeMode = (typeof THEME_MODES)[number];
export type TThemeId = `${TThemeStyle}-${TThemeMode}`;

export interface TThemeColors {
  background: string;
  backgroundSecondary: string;
  backgroundTertiary: string;
  textPrimary: string;
  textSecondary: string;
  textMuted: string;
  primary: string;
  primaryHover: string;
  primaryLight: string;
  /** Text on a primary-coloured button. */
  onPrimary: string;
  accent: string;
  accentHover: string;
  accentLight: string;
  success: string;
  warning: string;
  error: string;
  info: string;
  border: string;
  borderLight: string;
  surface: string;
  surfaceHover: string;
  overlay: string;
  overlayLight: string;
}

export interface TThemeTypography {
  fontBody: string;
  fontHeading: string;
  headingWeight: string;
  headingTracking: string;
  /** Display (hero title) size. */
  displaySize: string;
}

export interface TThemeSpacing {
  /** Vertical padding of page sections. */
  section: string;
  /** Gap between gallery tiles. */
  gallery: string;
}

export interface TThemeEffects {
  radiusSm: string;
  radiusMd: string;
  radiusLg: string;
  duration: string;
  /** Backdrop blur of floating controls. */
  blur: string;
}

export interface TThemeLayout {
  contentWidth: string;
  heroAlign: 'start' | 'center';
}

export interface TTheme {
  name: TThemeId;
  /** What the switcher calls it. */
  palette: string;
  mode: TThemeMode;
  visualStyle: TThemeStyle;
  colors: TThemeColors;
  typography: TThemeTypography;
  spacing: TThemeSpacing;
  effects: TThemeEffects;
  layout: TThemeLayout;
  shadows: { sm: string; md: string; lg: string; xl: string };
  gradients: { primary: string; hero: string; surface: string };
}

export const THEME_IDS: readonly TThemeId[] = THEME_STYLES.flatMap((style) => THEME_MODES.map((mode) => `${style}-${mode}` as const));
export const DEFAULT_LIGHT_THEME: TThemeId = DEFAULT_THEME_ID;
export const DEFAULT_DARK_THEME: TThemeId = 'professional-dark';

const SANS = "ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif";
const GEOMETRIC = `'Avenir Next', Avenir, Montserrat, 'Century Gothic', 'URW Gothic', 'Nunito Sans', ui-rounded, ${SANS}`;
const HUMANIST = `Seravek, 'Gill Sans Nova', Ubuntu, Calibri, 'DejaVu Sans', 'Source Sans Pro', ${SANS}`;
const SLAB = "Charter, 'Bitstream Charter', 'Sitka Text', Cambria, 'DejaVu Serif', Georgia, serif";
const NEO_GROTESK = `Inter, 'Helvetica Neue', Helvetica, Arial, ${SANS}`;
const OLD_STYLE = "'Iowan Old Style', 'Palatino Linotype', Palatino, 'URW Palladio L', P052, 'Book Antiqua', Georgia, serif";

const LIGHT_SHADOWS = (ink: string) => ({
  sm: `0 1px 2px rgb(${ink} / 0.06)`,
  md: `0 2px 4px rgb(${ink} / 0.05), 0 4px 12px rgb(${ink} / 0.06)`,
  lg: `0 4px 8px rgb(${ink} / 0.05), 0 12px 32px rgb(${ink} / 0.1)`,
  xl: `0 8px 16px rgb(${ink} / 0.08), 0 24px 64px rgb(${ink} / 0.16)`,
});
const DARK_SHADOWS = {
  sm: '0 1px 2px rgb(0 0 0 / 0.4)',
  md: '0 2px 4px rgb(0 0 0 / 0.3), 0 4px 12px rgb(0 0 0 / 0.35)',
  lg: '0 4px 8px rgb(0 0 0 / 0.3), 0 12px 32px rgb(0 0 0 / 0.45)',
  xl: '0 8px 16px rgb(0 0 0 / 0.35), 0 24px 64px rgb(0 0 0 / 0.55)',
};

interface TStyleBase {
  palette: string;
  typography: TThemeTypography;
  spacing: TThemeSpacing;
  effects: TThemeEffects;
  layout: TThemeLayout;
}

const STYLE_BASES: Record<TThemeStyle, TStyleBase> = {
  professional: {
    palette: 'Professional',
    typography: { fontBody: SANS, fontHeading: SANS, headingWeight: '750', headingTracking: '-0.022em', displaySize: 'clamp(2.25rem, 1.6rem + 2.8vw, 3.75rem)' },
    spacing: { section: '3rem', gallery: '1rem' },
    effects: { radiusSm: '6px', radiusMd: '10px', radiusLg: '16px', duration: '180ms', blur: '12px' },
    layout: { contentWidth: '72rem', heroAlign: 'start' },
  },
  creative: {
    palette: 'Creative',
    typography: { fontBody: SANS, fontHeading: GEOMETRIC, headingWeight: '800', headingTracking: '-0.03em', displaySize: 'clamp(2.5rem, 1.6rem + 3.6vw, 4.5rem)' },
    spacing: { section: '3.5rem', gallery: '1.25rem' },
    effects: { radiusSm: '10px', radiusMd: '16px', radiusLg: '24px', duration: '220ms', blur: '16px' },
    layout: { contentWidth: '74rem', heroAlign: 'start' },
  },
  nature: {
    palette: 'Nature',
    typography: { fontBody: HUMANIST, fontHeading: SLAB, headingWeight: '700', headingTracking: '-0.015em', displaySize: 'clamp(2.25rem, 1.6rem + 2.8vw, 3.75rem)' },
    spacing: { section: '3.25rem', gallery: '1rem' },
    effects: { radiusSm: '8px', radiusMd: '12px', radiusLg: '20px', duration: '200ms', blur: '12px' },
    layout: { contentWidth: '70rem', heroAlign: 'start' },
  },
  minimal: {
    palette: 'Minimal',
    typography: { fontBody: NEO_GROTESK, fontHeading: NEO_GROTESK, headingWeight: '600', headingTracking: '-0.02em', displaySize: 'clamp(2rem, 1.5rem + 2.2vw, 3.25rem)' },
    spacing: { section: '3rem', gallery: '0.5rem' },
    effects: { radiusSm: '2px', radiusMd: '4px', radiusLg: '6px', duration: '150ms', blur: '8px' },
    layout: { contentWidth: '68rem', heroAlign: 'start' },
  },
  elegant: {
    palette: 'Elegant',
    typography: { fontBody: SANS, fontHeading: OLD_STYLE, headingWeight: '500', headingTracking: '-0.01em', displaySize: 'clamp(2.4rem, 1.6rem + 3.2vw, 4.25rem)' },
    spacing: { section: '4rem', gallery: '1.25rem' },
    effects: { radiusSm: '3px', radiusMd: '6px', radiusLg: '10px', duration: '260ms', blur: '14px' },
    layout: { contentWidth: '70rem', heroAlign: 'center' },
  },
};

interface TModeColors {
  colors: TThemeColors;
  shadows: TTheme['shadows'];
  gradients: TTheme['gradients'];
}

const COLORS: Record<TThemeId, TModeColors> = {
  'professional-light': {
    colors: {
      background: '#ffffff',
      backgroundSecondary: '#f7f8fa',
      backgroundTertiary: '#eef1f5',
      textPrimary: '#111827',
      textSecondary: '#374151',
      textMuted: '#656b78',
      primary: '#1d4ed8',
      primaryHover: '#1e40af',
      primaryLight: '#eff4ff',
      onPrimary: '#ffffff',
      accent: '#0f766e',
      accentHover: '#115e59',
      accentLight: '#ecfdf8',
      success: '#15803d',
      warning: '#b45309',
      error: '#b91c1c',
      info: '#0369a1',
      border: '#e3e7ed',
      borderLight: '#eef1f5',
      surface: '#ffffff',
      surfaceHover: '#f7f8fa',
      overlay: 'rgb(10 12 16 / 0.96)',
      overlayLight: 'rgb(10 12 16 / 0.45)',
    },
    shadows: LIGHT_SHADOWS('17 24 39'),
    gradients: {
      primary: 'linear-gradient(135deg, #1d4ed8 0%, #0f766e 100%)',
      hero: 'radial-gradient(120% 80% at 0% 0%, #eff4ff, transparent 60%), #ffffff',
      surface: 'linear-gradient(180deg, #ffffff 0%, #f7f8fa 100%)',
    },
  },
  'professional-dark': {
    colors: {
      background: '#0c0e12',
      backgroundSecondary: '#13161c',
      backgroundTertiary: '#1b1f27',
      textPrimary: '#f3f4f6',
      textSecondary: '#c9ced6',
      textMuted: '#8b929e',
      primary: '#7aa2ff',
      primaryHover: '#a3bfff',
      primaryLight: 'rgb(122 162 255 / 0.14)',
      onPrimary: '#0c0e12',
      accent: '#2dd4bf',
      accentHover: '#5eead4',
      accentLight: 'rgb(45 212 191 / 0.12)',
      success: '#4ade80',
      warning: '#fbbf24',
      error: '#f87171',
      info: '#38bdf8',
      border: '#262b35',
      borderLight: '#1b1f27',
      surface: '#13161c',
      surfaceHover: '#1b1f27',
      overlay: 'rgb(4 5 8 / 0.96)',
      overlayLight: 'rgb(4 5 8 / 0.6)',
    },
    shadows: DARK_SHADOWS,
    gradients: {
      primary: 'linear-gradient(135deg, #7aa2ff 0%, #2dd4bf 100%)',
      hero: 'radial-gradient(120% 80% at 0% 0%, rgb(122 162 255 / 0.14), transparent 60%), #0c0e12',
      surface: 'linear-gradient(180deg, #13161c 0%, #0c0e12 100%)',
    },
  },
  'creative-light': {
    colors: {
      background: '#fffbfd',
      backgroundSecondary: '#fbf3f8',
      backgroundTertiary: '#f5e8f1',
      textPrimary: '#1e1326',
      textSecondary: '#463650',
      textMuted: '#73647c',
      primary: '#7c3aed',
      primaryHover: '#6d28d9',
      primaryLight: '#f3ecff',
      onPrimary: '#ffffff',
      accent: '#db2777',
      accentHover: '#be185d',
      accentLight: '#fdecf4',
      success: '#15803d',
      warning: '#c2410c',
      error: '#be123c',
      info: '#0e7490',
      border: '#eddfe9',
      borderLight: '#f5e8f1',
      surface: '#ffffff',
      surfaceHover: '#fbf3f8',
      overlay: 'rgb(20 10 28 / 0.96)',
      overlayLight: 'rgb(20 10 28 / 0.45)',
    },
    shadows: LIGHT_SHADOWS('60 20 90'),
    gradients: {
      primary: 'linear-gradient(120deg, #7c3aed 0%, #db2777 100%)',
      hero: 'radial-gradient(90% 90% at 100% 0%, #fde7f2, transparent 55%), radial-gradient(80% 80% at 0% 20%, #efe6ff, transparent 60%), #fffbfd',
      surface: 'linear-gradient(180deg, #ffffff 0%, #fbf3f8 100%)',
    },
  },
  'creative-dark': {
    colors: {
      background: '#120b1a',
      backgroundSecondary: '#1a1124',
      backgroundTertiary: '#241830',
      textPrimary: '#f7f1fb',
      textSecondary: '#d8c9e2',
      textMuted: '#9e8cab',
      primary: '#b794ff',
      primaryHover: '#cdb4ff',
      primaryLight: 'rgb(183 148 255 / 0.15)',
      onPrimary: '#120b1a',
      accent: '#f472b6',
      accentHover: '#f9a8d4',
      accentLight: 'rgb(244 114 182 / 0.14)',
      success: '#4ade80',
      warning: '#fb923c',
      error: '#fb7185',
      info: '#22d3ee',
      border: '#2f2240',
      borderLight: '#241830',
      surface: '#1a1124',
      surfaceHover: '#241830',
      overlay: 'rgb(8 4 12 / 0.96)',
      overlayLight: 'rgb(8 4 12 / 0.6)',
    },
    shadows: DARK_SHADOWS,
    gradients: {
      primary: 'linear-gradient(120deg, #b794ff 0%, #f472b6 100%)',
      hero: 'radial-gradient(90% 90% at 100% 0%, rgb(244 114 182 / 0.16), transparent 55%), radial-gradient(80% 80% at 0% 20%, rgb(183 148 255 / 0.18), transparent 60%), #120b1a',
      surface: 'linear-gradient(180deg, #1a1124 0%, #120b1a 100%)',
    },
  },
  'nature-light': {
    colors: {
      background: '#fbfaf5',
      backgroundSecondary: '#f3f1e7',
      backgroundTertiary: '#e9e6d8',
      textPrimary: '#1b2419',
      textSecondary: '#3d4a38',
      textMuted: '#5f6858',
      primary: '#2f6b3a',
      primaryHover: '#24552d',
      primaryLight: '#e7f1e4',
      onPrimary: '#ffffff',
      accent: '#a16207',
      accentHover: '#854d0e',
      accentLight: '#fbf1da',
      success: '#2f6b3a',
      warning: '#b45309',
      error: '#b42318',
      info: '#1f6f8b',
      border: '#e0dccb',
      borderLight: '#ebe8db',
      surface: '#fffefa',
      surfaceHover: '#f3f1e7',
      overlay: 'rgb(14 20 12 / 0.96)',
      overlayLight: 'rgb(14 20 12 / 0.45)',
    },
    shadows: LIGHT_SHADOWS('40 50 20'),
    gradients: {
      primary: 'linear-gradient(135deg, #2f6b3a 0%, #a16207 100%)',
      hero: 'radial-gradient(110% 90% at 0% 0%, #e3eedb, transparent 60%), radial-gradient(70% 70% at 100% 100%, #f6ecd3, transparent 60%), #fbfaf5',
      surface: 'linear-gradient(180deg, #fffefa 0%, #f3f1e7 100%)',
    },
  },
  'nature-dark': {
    colors: {
      background: '#0e130e',
      backgroundSecondary: '#151c15',
      backgroundTertiary: '#1d261c',
      textPrimary: '#eef2e8',
      textSecondary: '#c8d1bd',
      textMuted: '#8f9a84',
      primary: '#8fca85',
      primaryHover: '#acdca3',
      primaryLight: 'rgb(143 202 133 / 0.14)',
      onPrimary: '#0e130e',
      accent: '#e0b45a',
      accentHover: '#ecc97f',
      accentLight: 'rgb(224 180 90 / 0.14)',
      success: '#8fca85',
      warning: '#f0b54a',
      error: '#f2877a',
      info: '#6cc3df',
      border: '#263126',
      borderLight: '#1d261c',
      surface: '#151c15',
      surfaceHover: '#1d261c',
      overlay: 'rgb(5 8 5 / 0.96)',
      overlayLight: 'rgb(5 8 5 / 0.6)',
    },
    shadows: DARK_SHADOWS,
    gradients: {
      primary: 'linear-gradient(135deg, #8fca85 0%, #e0b45a 100%)',
      hero: 'radial-gradient(110% 90% at 0% 0%, rgb(143 202 133 / 0.14), transparent 60%), radial-gradient(70% 70% at 100% 100%, rgb(224 180 90 / 0.08), transparent 60%), #0e130e',
      surface: 'linear-gradient(180deg, #151c15 0%, #0e130e 100%)',
    },
  },
  'minimal-light': {
    colors: {
      background: '#ffffff',
      backgroundSecondary: '#fafafa',
      backgroundTertiary: '#f1f1f2',
      textPrimary: '#18181b',
      textSecondary: '#3f3f46',
      textMuted: '#6a6a73',
      primary: '#18181b',
      primaryHover: '#3f3f46',
      primaryLight: '#f4f4f5',
      onPrimary: '#ffffff',
      accent: '#52525b',
      accentHover: '#3f3f46',
      accentLight: '#f4f4f5',
      success: '#166534',
      warning: '#a16207',
      error: '#b91c1c',
      info: '#1e40af',
      border: '#e4e4e7',
      borderLight: '#f1f1f2',
      surface: '#ffffff',
      surfaceHover: '#fafafa',
      overlay: 'rgb(9 9 11 / 0.97)',
      overlayLight: 'rgb(9 9 11 / 0.45)',
    },
    shadows: {
      sm: '0 0 0 1px rgb(24 24 27 / 0.04)',
      md: '0 1px 3px rgb(24 24 27 / 0.08)',
      lg: '0 4px 16px rgb(24 24 27 / 0.08)',
      xl: '0 12px 40px rgb(24 24 27 / 0.12)',
    },
    gradients: {
      primary: 'linear-gradient(135deg, #18181b 0%, #52525b 100%)',
      hero: '#ffffff',
      surface: '#ffffff',
    },
  },
  'minimal-dark': {
    colors: {
      background: '#09090b',
      backgroundSecondary: '#111113',
      backgroundTertiary: '#1a1a1d',
      textPrimary: '#fafafa',
      textSecondary: '#d4d4d8',
      textMuted: '#8e8e96',
      primary: '#fafafa',
      primaryHover: '#d4d4d8',
      primaryLight: 'rgb(250 250 250 / 0.08)',
      onPrimary: '#09090b',
      accent: '#a1a1aa',
      accentHover: '#d4d4d8',
      accentLight: 'rgb(161 161 170 / 0.12)',
      success: '#4ade80',
      warning: '#facc15',
      error: '#f87171',
      info: '#93c5fd',
      border: '#27272a',
      borderLight: '#1a1a1d',
      surface: '#111113',
      surfaceHover: '#1a1a1d',
      overlay: 'rgb(0 0 0 / 0.97)',
      overlayLight: 'rgb(0 0 0 / 0.6)',
    },
    shadows: DARK_SHADOWS,
    gradients: {
      primary: 'linear-gradient(135deg, #fafafa 0%, #a1a1aa 100%)',
      hero: '#09090b',
      surface: '#111113',
    },
  },
  'elegant-light': {
    colors: {
      background: '#fcfaf6',
      backgroundSecondary: '#f6f1e9',
      backgroundTertiary: '#eee6da',
      textPrimary: '#221a17',
      textSecondary: '#4a3f39',
      textMuted: '#6f645e',
      primary: '#8a2846',
      primaryHover: '#6f1f38',
      primaryLight: '#f8e9ee',
      onPrimary: '#ffffff',
      accent: '#94701f',
      accentHover: '#7a5b17',
      accentLight: '#f7efd9',
      success: '#3f6b2e',
      warning: '#a15c07',
      error: '#a3232f',
      info: '#2f5d7c',
      border: '#e8dfd2',
      borderLight: '#f0e9de',
      surface: '#fffdf9',
      surfaceHover: '#f6f1e9',
      overlay: 'rgb(22 16 14 / 0.96)',
      overlayLight: 'rgb(22 16 14 / 0.45)',
    },
    shadows: LIGHT_SHADOWS('60 40 30'),
    gradients: {
      primary: 'linear-gradient(135deg, #8a2846 0%, #94701f 100%)',
      hero: 'linear-gradient(180deg, #f6f1e9 0%, #fcfaf6 100%)',
      surface: 'linear-gradient(180deg, #fffdf9 0%, #f6f1e9 100%)',
    },
  },
  'elegant-dark': {
    colors: {
      background: '#13100e',
      backgroundSecondary: '#1b1714',
      backgroundTertiary: '#25201b',
      textPrimary: '#f4ede4',
      textSecondary: '#d6cabc',
      textMuted: '#9c8f82',
      primary: '#e2b66b',
      primaryHover: '#ecc98d',
      primaryLight: 'rgb(226 182 107 / 0.14)',
      onPrimary: '#13100e',
      accent: '#d98aa3',
      accentHover: '#e7a9bc',
      accentLight: 'rgb(217 138 163 / 0.14)',
      success: '#9ccf86',
      warning: '#e9b44c',
      error: '#ef8a87',
      info: '#8dbbd9',
      border: '#332b24',
      borderLight: '#25201b',
      surface: '#1b1714',
      surfaceHover: '#25201b',
      overlay: 'rgb(8 6 5 / 0.97)',
      overlayLight: 'rgb(8 6 5 / 0.6)',
    },
    shadows: DARK_SHADOWS,
    gradients: {
      primary: 'linear-gradient(135deg, #e2b66b 0%, #d98aa3 100%)',
      hero: 'linear-gradient(180deg, #1b1714 0%, #13100e 100%)',
      surface: 'linear-gradient(180deg, #1b1714 0%, #13100e 100%)',
    },
  },
};

export const THEMES: Record<TThemeId, TTheme> = Object.fromEntries(
  THEME_IDS.map((id) => {
    const [visualStyle, mode] = id.split('-') as [TThemeStyle, TThemeMode];
    const base = STYLE_BASES[visualStyle];
    return [id, { name: id, mode, visualStyle, ...base, ...COLORS[id] } satisfies TTheme];
  }),
) as Record<TThemeId, TTheme>;

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The custom properties of one theme, as CSS declarations. */
export function themeDeclarations(id: TThemeId): string {
  const theme = THEMES[id];
  const lines = [`color-scheme:${theme.mode}`];
  for (const [name, value] of Object.entries(theme.colors)) lines.push(`--color-${kebab(name)}:${value}`);
  for (const [size, value] of Object.entries(theme.shadows)) lines.push(`--shadow-${size}:${value}`);
  for (const [name, value] of Object.entries(theme.gradients)) lines.push(`--gradient-${name}:${value}`);
  const { typography: t, spacing: s, effects: e, layout: l } = theme;
  lines.push(
    `--font-sans:${t.fontBody}`,
    `--font-heading:${t.fontHeading}`,
    `--heading-weight:${t.headingWeight}`,
    `--tracking-tight:${t.headingTracking}`,
    `--text-display:${t.displaySize}`,
    `--space-section:${s.section}`,
    `--space-gallery:${s.gallery}`,
    `--radius-sm:${e.radiusSm}`,
    `--radius-md:${e.radiusMd}`,
    `--radius-lg:${e.radiusLg}`,
    `--duration:${e.duration}`,
    `--blur:${e.blur}`,
    `--content-width:${l.contentWidth}`,
    `--hero-align:${l.heroAlign}`,
  );
  return lines.join(';');
}

/**
 * The theme CSS of a site in one style: its light variant on :root and under data-theme, its dark
 * variant under data-theme and, while no data-theme is set (a site that follows the visitor), by
 * media query: no script needed, so no flash, and it works with scripts off. A site pinned to a
 * mode, or a visitor's own light/dark pick, sets data-theme on <html> (higher specificity than
 * :root, so its values win whatever the order of the page's style blocks).
 */
export function themeCss(style: TThemeStyle): string {
  return [
    `:root{${themeDeclarations(`${style}-light`)}}`,
    ...THEME_MODES.map((mode) => `:root[data-theme="${style}-${mode}"]{${themeDeclarations(`${style}-${mode}`)}}`),
    `@media (prefers-color-scheme:dark){:root:not([data-theme]){${themeDeclarations(`${style}-dark`)}}}`,
  ].join('\n');
}

export function isThemeId(value: unknown): value is TThemeId {
  return typeof value === 'string' && (THEME_IDS as readonly string[]).includes(value);
}

/**
 * Resolves a project's theme string to a theme id: 'nature-dark' as is, a bare style
 * ('creative') in light, a bare mode ('dark') in the professional style; null (follow the
 * visitor's colour scheme) for '' or anything unknown.
 */
export function resolveThemeId(theme: string): TThemeId | null {
  const value = theme.trim().toLowerCase();
  if (isThemeId(value)) return value;
  if ((THEME_STYLES as readonly string[]).includes(value)) return `${value as TThemeStyle}-light`;
  if (value === 'dark') return DEFAULT_DARK_THEME;
  if (value === 'light') return DEFAULT_LIGHT_THEME;
  return null;
}

/**
 * How a page looks: the site's style, and its colour mode ('auto' follows the visitor's
 * prefers-color-scheme). A model without a colour mode is pinned as its theme says; an unknown
 * theme is the professional style following the visitor.
 */
export function pageLook(theme: string, colorMode: TColorMode | undefined): { style: TThemeStyle; colorMode: TColorMode } {
  const id = resolveThemeId(theme);
  return { style: id ? THEMES[id].visualStyle : 'professional', colorMode: colorMode ?? (id ? THEMES[id].mode : 'auto') };
}
