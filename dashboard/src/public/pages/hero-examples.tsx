import { DEFAULT_THEME_ID } from '@dropsite/shared/constants';
import { THEME_IDS, THEMES, themeDeclarations } from '@dropsite/shared/themes';
import { ArrowRightIcon } from '../../ui/icons.tsx';
import { PublicLayout } from '../layout/public-layout.tsx';
import type { TPublicPage } from '../public-page.ts';
import './hero-examples.css';

/** The hero demo's eight cases (spec 'Hero demo'): sample content, each with a title, a sub-line and a tag line. */
const EXAMPLES = [
  {
    kind: 'Portfolio',
    title: 'Mara Lind — Selected Work',
    subLine: 'Brand identities, editorial layouts and packaging from the last three years.',
    tagLine: 'By Mara Lind • Independent designer',
  },
  { kind: 'Event', title: 'Harbour Lights Wedding', subLine: 'Ceremony, reception and portraits from Saturday, 14 June.', tagLine: 'By Ana Ruiz • Ruiz Photography' },
  {
    kind: 'Client',
    title: 'Northwind Rebrand — Final Files',
    subLine: 'Logo suite, colour palette and brand guidelines, ready for your approval.',
    tagLine: 'By Studio Fold • Design agency',
  },
  { kind: 'Presentation', title: 'Quarterly Product Review', subLine: 'The slides, the demo recording and the figures behind them.', tagLine: 'By Priya Shah • Product team' },
  { kind: 'Personal', title: 'Our Summer in Lisbon', subLine: 'Two weeks of tiled streets, tram rides and long dinners, for the family.', tagLine: 'By Sam & Alex • Family album' },
  {
    kind: 'Project',
    title: 'Riverside Library Renovation',
    subLine: 'Drawings, progress photos and the site report for phase two.',
    tagLine: 'By Okafor Architects • Project update',
  },
  {
    kind: 'Education',
    title: 'Introduction to Watercolour — Week 4',
    subLine: 'Lesson slides, reference photos and this week’s exercise sheet.',
    tagLine: 'By Jo Bennett • Community art class',
  },
  { kind: 'Creative', title: 'Night Bloom — Short Film', subLine: 'Stills, the trailer and the press kit for the festival run.', tagLine: 'By Lumen Collective • Film studio' },
] as const;

/** Each theme's custom properties, scoped to the preview box, from the site template's own theme tokens. */
const THEME_STYLE = THEME_IDS.map((id) => `.hero-demo[data-theme="${id}"]{${themeDeclarations(id)}}`).join('\n');

function HeroExamples() {
  const first = EXAMPLES[0];
  return (
    <PublicLayout path="/hero-examples" mainClassName="hero-examples-page">
      <style>{THEME_STYLE}</style>
      <div className="container">
        <header className="hero-examples-page__header">
          <p className="eyebrow">Hero examples</p>
          <h1 className="hero-examples-page__title">The top of your site, eight ways</h1>
          <p className="hero-examples-page__lede">
            Every Dropsite site opens with a hero: a title, a sub-line and a tag line. Step through eight examples and try them in each of the ten themes your visitors can switch
            between.
          </p>
        </header>

        <section className="hero-examples" data-island="hero-examples" aria-roledescription="carousel" aria-label="Hero examples">
          <div className="hero-examples__toolbar" hidden data-controls>
            <label className="hero-examples__theme">
              <span>Theme</span>
              <select data-theme-select defaultValue={DEFAULT_THEME_ID}>
                {THEME_IDS.map((id) => (
                  <option key={id} value={id}>
                    {THEMES[id].palette} · {THEMES[id].mode === 'light' ? 'Light' : 'Dark'}
                  </option>
                ))}
              </select>
            </label>
            <p className="hero-examples__count" aria-live="polite" data-count>
              1 of {EXAMPLES.length}: {first.kind}
            </p>
          </div>

          <div className="hero-demo" data-theme={DEFAULT_THEME_ID} data-stage>
            {EXAMPLES.map((example, index) => (
              <div
                key={example.kind}
                className="hero-demo__slide"
                role="group"
                aria-roledescription="slide"
                aria-label={`${index + 1} of ${EXAMPLES.length}: ${example.kind}`}
                hidden={index > 0}
                data-slide
              >
                <p className="hero-demo__kind">{example.kind}</p>
                <h2 className="hero-demo__title">{example.title}</h2>
                <p className="hero-demo__sub">{example.subLine}</p>
                <p className="hero-demo__tag">{example.tagLine}</p>
              </div>
            ))}
          </div>

          <div className="hero-examples__nav" hidden data-controls>
            <button type="button" className="button button--secondary hero-examples__step" data-step="-1">
              <ArrowRightIcon size={16} className="hero-examples__back-icon" />
              Previous<span className="visually-hidden"> example</span>
            </button>
            <div className="hero-examples__dots" role="group" aria-label="Choose an example">
              {EXAMPLES.map((example, index) => (
                <button
                  key={example.kind}
                  type="button"
                  className="hero-examples__dot"
                  aria-label={`Example ${index + 1}: ${example.kind}`}
                  aria-current={index === 0 ? 'true' : undefined}
                  data-dot={index}
                />
              ))}
            </div>
            <button type="button" className="button button--secondary hero-examples__step" data-step="1">
              Next<span className="visually-hidden"> example</span>
              <ArrowRightIcon size={16} />
            </button>
          </div>

          <div className="hero-examples__all" data-static-list>
            <h2 className="hero-examples__all-title">All eight examples</h2>
            <ol className="hero-examples__list">
              {EXAMPLES.map((example) => (
                <li key={example.kind}>
                  <strong>{example.kind}:</strong> {example.title}. {example.subLine} <em>{example.tagLine}</em>
                </li>
              ))}
            </ol>
          </div>
        </section>

        <p className="hero-examples-page__next">
          <a className="button button--primary button--large" href="/">
            Make your own site
            <ArrowRightIcon size={18} />
          </a>
          <a className="button button--secondary button--large" href="/templates">
            Browse templates
          </a>
        </p>
      </div>
    </PublicLayout>
  );
}

export const heroExamplesPage: TPublicPage = {
  path: '/hero-examples',
  title: 'Hero examples',
  description: 'Eight examples of the hero that opens every Dropsite site, in each of the ten themes.',
  Page: HeroExamples,
};
