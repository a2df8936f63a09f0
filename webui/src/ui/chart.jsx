// chart - a time series as a uPlot chart: stepped areas over a time axis, the
// values on the axis and in the legend in the series' own format (bytes,
// cores, counts), sized to its container. Only the statistics page imports
// it, so uPlot (and this file) load with that page, never on a first load;
// its sheet rides in app.css (main.jsx).
//
// uPlot draws on a canvas that a screen reader cannot read: every chart is
// labelled as an image, and the page gives the same numbers as a table.

import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

const KIB = 1024;
// Round steps for a byte axis: 1, 2, 5, 10, 20, 50, 100, 200, 500 of each unit.
const BYTE_STEPS = [KIB ** 0, KIB, KIB ** 2, KIB ** 3, KIB ** 4, KIB ** 5]
  .flatMap((unit) => [1, 2, 5, 10, 20, 50, 100, 200, 500].map((m) => m * unit))
  .sort((a, b) => a - b);
// Counts (sessions, cores, devices) in whole steps, or halves below 2.
const COUNT_STEPS = [0.25, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];

const COLORS = ['#2357c6', '#c2410c', '#15803d', '#7c3aed'];

// series: [{label, values}] over the same times (seconds), each value held
// for step seconds from its time; format(v) writes one value; bytes picks the
// byte steps for the axis; timeLabel names the time in the legend.
export function Chart({ label, times, step, series, format, bytes = false, timeLabel, height = 180 }) {
  const box = useRef(null);
  const plot = useRef(null);

  useEffect(() => {
    const el = box.current;
    const max = Math.max(0, ...series.flatMap((s) => s.values));
    const opts = {
      width: Math.max(200, el.clientWidth),
      height,
      // The legend's first entry is the time under the cursor.
      series: [
        { label: timeLabel, value: '{YYYY}-{MM}-{DD} {HH}:{mm}' },
        ...series.map((s, i) => ({
          label: s.label,
          stroke: COLORS[i % COLORS.length],
          fill: COLORS[i % COLORS.length] + '22',
          width: 2,
          paths: uPlot.paths.stepped({ align: 1 }),
          points: { show: false },
          value: (u, v) => (v === null || v === undefined ? '—' : format(v)),
        })),
      ],
      scales: {
        x: { time: true },
        // From zero, with room above the highest value; a flat zero still
        // shows an axis from 0 to 1.
        y: { range: () => [0, max > 0 ? max * 1.15 : 1] },
      },
      axes: [
        { stroke: '#5f6b7a', grid: { stroke: '#eef1f4' }, ticks: { stroke: '#dde2e8' } },
        {
          stroke: '#5f6b7a',
          grid: { stroke: '#eef1f4' },
          ticks: { stroke: '#dde2e8' },
          incrs: bytes ? BYTE_STEPS : COUNT_STEPS,
          values: (u, splits) => splits.map((v) => format(v)),
          size: 78,
        },
      ],
      legend: { live: true },
      cursor: { drag: { x: false, y: false } },
    };
    // The last step drawn to its end too: a closing point where it ends.
    const end = times.length ? [times[times.length - 1] + step] : [];
    const data = [[...times, ...end], ...series.map((s) => [...s.values, ...(end.length ? [s.values[s.values.length - 1]] : [])])];
    plot.current = new uPlot(opts, data, el);
    // Follow the container's width (a phone turned, the side menu opened).
    const resize = new ResizeObserver(() => {
      if (plot.current) plot.current.setSize({ width: Math.max(200, el.clientWidth), height });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.current.destroy();
      plot.current = null;
    };
  }, [times, step, series]);

  const max = Math.max(0, ...series.flatMap((s) => s.values));
  return (
    <figure class="chart">
      <figcaption>{label}</figcaption>
      <div ref={box} class="chart-plot" role="img" aria-label={label} data-points={times.length} data-max={max} />
    </figure>
  );
}
