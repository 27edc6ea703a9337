/**
 * The creator's look controls, in the wizard's template step and in a site's settings: the visual
 * style, the colour mode (automatic follows each visitor's light/dark setting), the hero layout and
 * whether visitors may switch light/dark themselves. Native radios and a checkbox: arrow keys move
 * within each group.
 */
import { useId } from 'react';
import { COLOR_MODES, COLOR_MODE_HINTS, COLOR_MODE_LABELS, HERO_LAYOUTS, HERO_LAYOUT_LABELS, THEME_STYLES, THEME_STYLE_LABELS, type TSiteLook } from '@dropsite/shared';
import { THEMES } from '@dropsite/shared/themes';
import './choice-tile.css';
import './column-grid.css';
import './label-text.css';
import './look-fields.css';

interface TLookFieldsProps {
  look: TSiteLook;
  onChange: (look: Partial<TSiteLook>) => void;
}

/** How each hero layout is drawn in its choice: a title bar and a picture, in the layout's places. */
const LAYOUT_SKETCHES: Record<TSiteLook['heroLayout'], string> = {
  minimal: 'M3 5h12M3 8h8',
  centered: 'M5 5h10M7 8h6',
  split: 'M2 5h7M2 8h5M11 3h7v8h-7z',
  featured: 'M2 2h16v10H2zM5 6h10M7 9h6',
};

export function LookFields({ look, onChange }: TLookFieldsProps) {
  const name = useId();
  const toggleHint = useId();
  return (
    <div className="look-fields">
      <fieldset className="look-group">
        <legend className="look-group__legend">Visual style</legend>
        <div className="look-styles column-grid">
          {THEME_STYLES.map((style) => {
            const light = THEMES[`${style}-light`].colors;
            const dark = THEMES[`${style}-dark`].colors;
            return (
              <label key={style} className="look-style choice-tile" data-selected={look.style === style ? '' : undefined}>
                <input
                  type="radio"
                  name={`${name}-style`}
                  value={style}
                  checked={look.style === style}
                  onChange={() => onChange({ style })}
                  className="look-choice__input ui-cover-input"
                />
                <span className="look-style__swatch" aria-hidden="true">
                  <span style={{ background: light.background, color: light.primary }}>
                    <span className="look-style__ink" style={{ background: light.primary }} />
                    <span className="look-style__line" style={{ background: light.textMuted }} />
                  </span>
                  <span style={{ background: dark.background, color: dark.primary }}>
                    <span className="look-style__ink" style={{ background: dark.primary }} />
                    <span className="look-style__line" style={{ background: dark.textMuted }} />
                  </span>
                </span>
                <span className="look-style__name">{THEME_STYLE_LABELS[style]}</span>
              </label>
            );
          })}
        </div>
      </fieldset>

      <fieldset className="look-group">
        <legend className="look-group__legend">Light or dark</legend>
        <div className="look-segments column-grid">
          {COLOR_MODES.map((mode) => (
            <label key={mode} className="look-segment choice-tile" data-selected={look.colorMode === mode ? '' : undefined}>
              <input
                type="radio"
                name={`${name}-mode`}
                value={mode}
                checked={look.colorMode === mode}
                onChange={() => onChange({ colorMode: mode })}
                className="look-choice__input ui-cover-input"
                aria-labelledby={`${name}-mode-${mode}`}
                aria-describedby={`${name}-mode-${mode}-hint`}
              />
              <span className="label-text" id={`${name}-mode-${mode}`}>
                {COLOR_MODE_LABELS[mode]}
              </span>
              <span className="look-segment__hint hint-text" id={`${name}-mode-${mode}-hint`}>
                {COLOR_MODE_HINTS[mode]}
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset className="look-group">
        <legend className="look-group__legend">Hero layout</legend>
        <div className="look-layouts column-grid">
          {HERO_LAYOUTS.map((layout) => (
            <label key={layout} className="look-layout choice-tile" data-selected={look.heroLayout === layout ? '' : undefined}>
              <input
                type="radio"
                name={`${name}-layout`}
                value={layout}
                checked={look.heroLayout === layout}
                onChange={() => onChange({ heroLayout: layout })}
                className="look-choice__input ui-cover-input"
              />
              <svg className="look-layout__sketch" viewBox="0 0 20 14" aria-hidden="true">
                <path d={LAYOUT_SKETCHES[layout]} />
              </svg>
              <span>{HERO_LAYOUT_LABELS[layout]}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <label className="look-toggle">
        <input type="checkbox" checked={look.visitorModeToggle} onChange={(e) => onChange({ visitorModeToggle: e.target.checked })} aria-describedby={toggleHint} />
        <span className="look-toggle__text">
          <span className="label-text">Let visitors switch light/dark</span>
          <span className="hint-text" id={toggleHint}>
            Adds a light/dark button to the site. Visitors start in the mode above.
          </span>
        </span>
      </label>
    </div>
  );
}
