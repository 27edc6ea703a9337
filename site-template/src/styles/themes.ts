/**
 * Theme token values, one object per theme. The page turns them into CSS custom properties
 * (`--color-background`, ..., `--shadow-xl`) selected with `data-theme` on <html>; with no
 * explicit theme the visitor's prefers-color-scheme picks light or dark.
 * To add a theme: add an entry here (every token required) and to THEME_IDS.
 */

export interface TThemeTokens {
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
  shadows: { sm: string; md: string; lg: string; xl: string };
}

export const THEME_IDS = ['professional-light', 'professional-dark'] as const;
export type TThemeId = (typeof THEME_IDS)[number];
export const DEFAULT_LIGHT_THEME: TThemeId = 'professional-light';
export const DEFAULT_DARK_THEME: TThemeId = 'professional-dark';

export const THEMES: Record<TThemeId, { mode: 'light' | 'dark'; tokens: TThemeTokens }> = {
  'professional-light': {
    mode: 'light',
    tokens: {
      background: '#ffffff',
      backgroundSecondary: '#f7f8fa',
      backgroundTertiary: '#eef1f5',
      textPrimary: '#111827',
      textSecondary: '#374151',
      textMuted: '#6b7280',
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
      shadows: {
        sm: '0 1px 2px rgb(17 24 39 / 0.06)',
        md: '0 2px 4px rgb(17 24 39 / 0.05), 0 4px 12px rgb(17 24 39 / 0.06)',
        lg: '0 4px 8px rgb(17 24 39 / 0.05), 0 12px 32px rgb(17 24 39 / 0.1)',
        xl: '0 8px 16px rgb(17 24 39 / 0.08), 0 24px 64px rgb(17 24 39 / 0.16)',
      },
    },
  },
  'professional-dark': {
    mode: 'dark',
    tokens: {
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
      shadows: {
        sm: '0 1px 2px rgb(0 0 0 / 0.4)',
        md: '0 2px 4px rgb(0 0 0 / 0.3), 0 4px 12px rgb(0 0 0 / 0.35)',
        lg: '0 4px 8px rgb(0 0 0 / 0.3), 0 12px 32px rgb(0 0 0 / 0.45)',
        xl: '0 8px 16px rgb(0 0 0 / 0.35), 0 24px 64px rgb(0 0 0 / 0.55)',
      },
    },
  },
};

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function declarations(id: TThemeId): string {
  const { mode, tokens } = THEMES[id];
  const lines = [`color-scheme:${mode}`];
  for (const [name, value] of Object.entries(tokens)) {
    if (typeof value === 'string') lines.push(`--color-${kebab(name)}:${value}`);
  }
  for (const [size, value] of Object.entries(tokens.shadows)) lines.push(`--shadow-${size}:${value}`);
  return lines.join(';');
}

/** The theme CSS: every theme under its data-theme, the defaults on :root, dark by media query when no theme is set. */
export const THEME_CSS: string = [
  `:root{${declarations(DEFAULT_LIGHT_THEME)}}`,
  ...THEME_IDS.map((id) => `[data-theme="${id}"]{${declarations(id)}}`),
  `@media (prefers-color-scheme:dark){:root:not([data-theme]){${declarations(DEFAULT_DARK_THEME)}}}`,
].join('\n');

/**
 * Resolves a project's theme string ('professional-dark', 'dark', 'creative-light', '') to a theme id,
 * or null when the site should follow the visitor's colour scheme. Unknown styles fall back to
 * 'professional' until their tokens exist.
 */
export function resolveThemeId(theme: string): TThemeId | null {
  const parts = theme.trim().toLowerCase().split('-');
  const mode = parts[parts.length - 1];
  if (mode === 'dark') return DEFAULT_DARK_THEME;
  if (mode === 'light') return DEFAULT_LIGHT_THEME;
  const exact = THEME_IDS.find((id) => id === theme);
  return exact ?? null;
}
