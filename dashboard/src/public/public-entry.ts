/**
 * The one script of every prerendered public page. The page is complete HTML; this adds the styles
 * and loads, for each element marked `data-island="name"`, the small module `islands/name.ts` that
 * makes it interactive. A page loads only the islands it has, each its own chunk.
 */
import '../styles/tokens.css';
import '../styles/base.css';
import '@dropsite/shared/browser/ui.css';
import '../chrome/site-header.css';
import '../chrome/site-footer.css';
// Components the prerendered pages render that bring styles of their own.
import '../ui/plan-features.css';
import '../ui/column-grid.css';
import '../ui/demo-preview-name.css';
import '../ui/field-with-button.css';
import '../ui/spread-row.css';
// The forms' styles: the contact, feedback and sales forms, and the footer's newsletter box on every page.
import '../forms/forms.css';

import.meta.glob(['./**/*.css'], { eager: true });

type TIsland = { mount(root: HTMLElement): void };
const ISLANDS = import.meta.glob<TIsland>(['./islands/*.ts', '!./islands/*.test.ts']);

for (const root of document.querySelectorAll<HTMLElement>('[data-island]')) {
  for (const name of (root.dataset.island ?? '').split(/\s+/).filter(Boolean)) {
    const load = ISLANDS[`./islands/${name}.ts`];
    if (!load) {
      console.error(`No island named ${name}.`);
      continue;
    }
    load().then(
      (island) => island.mount(root),
      (error: unknown) => console.error(`The ${name} island failed to load.`, error),
    );
  }
}
