// Charts of the dashboard. Lines over time are drawn by uPlot (about 20 KB gzipped, canvas, fast on
// long series, maintained; bundled with its style sheet by esbuild, no other host). The canvas is
// an image with an accessible name and a one-line summary; the figures themselves are in the table
// given as the chart's alternative, one click away under the chart (and in its CSV).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface Series {
  label: string;
  values: (number | null)[];
  /** A colour from the app's palette by default. */
  color?: string;
  /** Draw dashed (e.g. the competitors' mean against the brand). */
  dashed?: boolean;
}

export interface LineChartProps {
  /** The chart's accessible name. */
  label: string;
  /** UTC days (YYYY-MM-DD), one per point. */
  days: string[];
  series: Series[];
  /** The value axis' range, e.g. [0, 100] for scores; by default it fits the data. */
  range?: [number, number];
  height?: number;
  /** What the chart shows, in words (read with its name). */
  summary?: string;
  /** The same figures as a table (the chart's alternative). */
  table?: ComponentChildren;
  /** Shown instead of the chart when there is nothing to draw. */
  empty?: ComponentChildren;
  /** Called each time the canvas has been drawn (e.g. for a page to say it is ready). */
  onDrawn?: () => void;
  /** A click on the chart opens the point under the cursor (its index in `days`). */
  onPoint?: (index: number) => void;
}

export const PALETTE = ['#3a55d0', '#c2410c', '#0f766e', '#7c3aed', '#b45309', '#be185d'];

const toSeconds = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;
// Days are UTC days: drawn as such whatever the reader's time zone.
const utc = (ts: number) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC');

export function LineChart(p: LineChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const onDrawn = useRef(p.onDrawn);
  onDrawn.current = p.onDrawn;
  const onPoint = useRef(p.onPoint);
  onPoint.current = p.onPoint;
  // Redrawn when what it draws changes, not at every render of the page.
  const drawn = JSON.stringify([p.days, p.series, p.range, p.height]);
  useEffect(() => {
    const el = box.current;
    if (!el || !p.days.length) return;
    const opts: uPlot.Options = {
      width: Math.max(280, el.clientWidth),
      height: p.height ?? 240,
      tzDate: utc,
      legend: { show: true, live: true },
      hooks: { draw: [() => onDrawn.current?.()] },
      cursor: { drag: { x: false, y: false }, points: { size: 7 } },
      scales: {
        x: { time: true },
        y: p.range ? { range: p.range } : { range: (_u, lo, hi) => [Math.min(0, lo), hi * 1.1 || 1] },
      },
      axes: [
        { stroke: '#596270', grid: { show: false }, ticks: { stroke: '#e2e5ea' } },
        { stroke: '#596270', grid: { stroke: '#edf0f4' }, ticks: { show: false }, size: 44 },
      ],
      series: [
        { label: 'Day', value: '{YYYY}-{MM}-{DD}' },
        ...p.series.map((s, i) => ({
          label: s.label,
          stroke: s.color ?? PALETTE[i % PALETTE.length],
          width: 2,
          dash: s.dashed ? [6, 4] : undefined,
          fill: i === 0 && !s.dashed ? 'rgba(58, 85, 208, 0.08)' : undefined,
          spanGaps: false,
          points: { show: p.days.length < 40, size: 5 },
        })),
      ],
    };
    const data = [p.days.map(toSeconds), ...p.series.map((s) => s.values)] as uPlot.AlignedData;
    const plot = new uPlot(opts, data, el);
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(280, el.clientWidth), height: opts.height }),
    );
    resize.observe(el);
    // The day under the cursor (uPlot snaps the cursor to the nearest point).
    const click = () => {
      const i = plot.cursor.idx;
      if (i !== null && i !== undefined) onPoint.current?.(i);
    };
    plot.over.addEventListener('click', click);
    return () => {
      plot.over.removeEventListener('click', click);
      resize.disconnect();
      plot.destroy();
    };
  }, [drawn]);
  if (!p.days.length) return <p class="empty">{p.empty ?? 'Nothing to draw for these filters.'}</p>;
  return (
    <figure class="chart">
      <div
        ref={box}
        class={p.onPoint ? 'chart-canvas clickable' : 'chart-canvas'}
        role="img"
        aria-label={p.summary ? `${p.label}. ${p.summary}` : p.label}
      />
      {p.table && (
        <details class="chart-table">
          <summary>Show as table</summary>
          {p.table}
        </details>
      )}
    </figure>
  );
}
