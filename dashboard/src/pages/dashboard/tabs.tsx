/** Tabs in the ARIA pattern: one tab stop, arrows, Home and End move and select (automatic activation). */
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface TTab {
  id: string;
  label: string;
  render: () => ReactNode;
}

/** Which tab a key moves to from `current`, or null when the key is not one of the tab list's. */
export function nextTabIndex(key: string, current: number, count: number): number | null {
  switch (key) {
    case 'ArrowRight':
      return (current + 1) % count;
    case 'ArrowLeft':
      return (current - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/** `initialId` opens another tab than the first (a link to a project's settings says `#settings`). */
export function Tabs({ label, tabs, initialId }: { label: string; tabs: readonly TTab[]; initialId?: string | undefined }) {
  const [selected, setSelected] = useState(() =>
    Math.max(
      0,
      tabs.findIndex((tab) => tab.id === initialId),
    ),
  );
  const baseId = useId();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const active = tabs[selected] ?? tabs[0];

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = nextTabIndex(event.key, selected, tabs.length);
    if (next === null) return;
    event.preventDefault();
    setSelected(next);
    buttons.current[next]?.focus();
  };

  return (
    <div className="dash-tabs">
      <div className="dash-tabs__list" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
        {tabs.map((tab, index) => (
          <button
            key={tab.id}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${tab.id}`}
            aria-selected={index === selected}
            aria-controls={`${baseId}-panel-${tab.id}`}
            tabIndex={index === selected ? 0 : -1}
            className="dash-tabs__tab"
            onClick={() => setSelected(index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {active && (
        <div className="dash-tabs__panel" role="tabpanel" id={`${baseId}-panel-${active.id}`} aria-labelledby={`${baseId}-tab-${active.id}`}>
          {active.render()}
        </div>
      )}
    </div>
  );
}
