/**
 * Views, unique visitors and downloads per UTC day over 7, 30 or 90 days, drawn by uPlot. uPlot and
 * its stylesheet are fetched when the first chart mounts, so no other page carries them. Colours
 * come from the theme's custom properties and follow a change of colour scheme; with the keyboard,
 * the arrow keys walk the days and each day is read out.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type uPlot from 'uplot';
import { CHART_RANGES, fetchDailyAnalytics, type TChartRange } from '../../dashboard-api/dashboard-api.ts';
import type { TDailyAnalyticsResponse } from '@dropsite/shared';
import { describeDay, formatChartDay, plural, toChartColumns } from './project-insights.ts';

const CHART_HEIGHT = 220;

type TUPlot = typeof uPlot;
let loadingUPlot: Promise<TUPlot> | null = null;

function loadUPlot(): Promise<TUPlot> {
  loadingUPlot ??= Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([module]) => module.default);
  return loadingUPlot;
}

function themeColours(element: HTMLElement) {
  const style = getComputedStyle(element);
  const read = (name: string) => style.getPropertyValue(name).trim();
  return {
    views: read('--chart-views'),
    visitors: read('--chart-visitors'),
    downloads: read('--chart-downloads'),
    axis: read('--color-text-subtle'),
    grid: read('--color-border'),
  };
}

function chartOptions(UPlot: TUPlot, element: HTMLElement, width: number): uPlot.Options {
  const colours = themeColours(element);
  const axis: uPlot.Axis = { stroke: colours.axis, grid: { stroke: colours.grid, width: 1 }, ticks: { stroke: colours.grid, width: 1 }, font: '12px system-ui, sans-serif' };
  return {
    width,
    height: CHART_HEIGHT,
    // The days are UTC days: label them as such, whatever the viewer's time zone.
    tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
    axes: [
      {
        ...axis,
        space: 56,
        // One tick per day at most: the data has no hours, so the axis shows none.
        incrs: [86_400, 2 * 86_400, 7 * 86_400, 14 * 86_400, 28 * 86_400],
        values: (_chart, splits) => splits.map((split) => formatChartDay(new Date(split * 1000).toISOString().slice(0, 10))),
      },
      { ...axis, size: 44 },
    ],
    series: [
      { label: 'Day', value: '{MMM} {D}' },
      { label: 'Views', stroke: colours.views, width: 2, points: { size: 5 } },
      { label: 'Unique visitors', stroke: colours.visitors, width: 2, points: { size: 5 } },
      { label: 'Downloads', stroke: colours.downloads, width: 2, dash: [6, 4], points: { size: 5 } },
    ],
    cursor: { drag: { x: false, y: false } },
    legend: { live: true },
  };
}

export function DailyChart({ projectId, fileId, revision }: { projectId: string; fileId?: string | null; revision: number }) {
  const [range, setRange] = useState<TChartRange>(30);
  const [chart, setChart] = useState<Pick<TDailyAnalyticsResponse, 'days' | 'totals'> | null>(null);
  const days = chart?.days ?? null;
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [cursorDay, setCursorDay] = useState<number | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const captionId = useId();
  const readingId = useId();

  useEffect(() => {
    let isCurrent = true;
    fetchDailyAnalytics({ projectId, fileId, days: range }).then(
      (answer) => {
        if (!isCurrent) return;
        setChart(answer);
        setFailed(false);
      },
      () => isCurrent && setFailed(true),
    );
    return () => {
      isCurrent = false;
    };
  }, [projectId, fileId, range, revision, attempt]);

  // Draws (and redraws on a new colour scheme) once the days are here; data changes go through setData.
  useEffect(() => {
    const element = frame.current;
    if (!element || !days) return;
    let isCurrent = true;
    let resize: ResizeObserver | null = null;
    const scheme = window.matchMedia('(prefers-color-scheme: dark)');
    const draw = (UPlot: TUPlot) => {
      plot.current?.destroy();
      element.replaceChildren();
      plot.current = new UPlot(chartOptions(UPlot, element, element.clientWidth), toChartColumns(days), element);
    };
    let redraw: (() => void) | null = null;
    loadUPlot().then(
      (UPlot) => {
        if (!isCurrent) return;
        draw(UPlot);
        redraw = () => draw(UPlot);
        scheme.addEventListener('change', redraw);
        resize = new ResizeObserver(() => plot.current?.setSize({ width: element.clientWidth, height: CHART_HEIGHT }));
        resize.observe(element);
      },
      () => isCurrent && setFailed(true),
    );
    return () => {
      isCurrent = false;
      resize?.disconnect();
      if (redraw) scheme.removeEventListener('change', redraw);
      plot.current?.destroy();
      plot.current = null;
    };
  }, [days]);

  const moveCursor = (index: number) => {
    const chart = plot.current;
    if (!chart || !days?.length) return;
    const day = days[index];
    if (!day) return;
    setCursorDay(index);
    chart.setCursor({ left: chart.valToPos(Date.parse(`${day.date}T00:00:00Z`) / 1000, 'x'), top: chart.valToPos(day.views, 'y') });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!days?.length) return;
    const last = days.length - 1;
    const current = cursorDay ?? last;
    const next = { ArrowLeft: Math.max(0, current - 1), ArrowRight: Math.min(last, current + 1), Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    moveCursor(cursorDay === null && (event.key === 'ArrowLeft' || event.key === 'ArrowRight') ? last : next);
  };

  // A visitor of several days is one visitor of the range: the server's totals, not the sum of the days.
  const totals = chart?.totals;
  const reading = cursorDay !== null && days?.[cursorDay] ? describeDay(days[cursorDay]) : '';

  return (
    <figure className="dash-chart">
      <div className="dash-chart__head">
        <figcaption id={captionId} className="dash-chart__caption">
          Per day, last {range} days
          {totals && (
            <span className="dash-chart__totals">
              {plural(totals.views, 'view')} · {plural(totals.uniqueVisitors, 'unique visitor')} · {plural(totals.downloads, 'download')}
            </span>
          )}
        </figcaption>
        <div className="dash-segmented" role="group" aria-label="Chart range">
          {CHART_RANGES.map((option) => (
            <button key={option} type="button" className="dash-segmented__option" aria-pressed={option === range} onClick={() => setRange(option)}>
              {option} days
            </button>
          ))}
        </div>
      </div>
      {failed ? (
        <div className="dash-chart__failed" role="alert">
          <p>The chart could not be loaded.</p>
          <button type="button" className="button button--secondary" onClick={() => setAttempt((n) => n + 1)}>
            Retry
          </button>
        </div>
      ) : (
        <div className="dash-chart__plot-area">
          {!days && <div className="dash-skeleton dash-chart__skeleton" aria-hidden="true" />}
          <div
            ref={frame}
            className="dash-chart__plot"
            role="group"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the chart is walked day by day with the arrow keys, so it takes focus.
            tabIndex={0}
            aria-labelledby={captionId}
            aria-describedby={readingId}
            aria-roledescription="chart"
            data-chart-ready={days ? '' : undefined}
            onKeyDown={onKeyDown}
            onFocus={() => days?.length && cursorDay === null && moveCursor(days.length - 1)}
          />
          <p id={readingId} className="dash-chart__reading" aria-live="polite">
            {reading || 'Use the left and right arrow keys to read each day.'}
          </p>
        </div>
      )}
    </figure>
  );
}
