// The stats page's rating chart: a series of ratings as the points of an SVG polyline, scaled to fit.

export interface Chart {
  /** `x,y` pairs for `<polyline points>`, oldest first, left to right. */
  points: string;
  /** Where the latest rating is drawn (marked with a dot: a single rating is only that). */
  last: { x: number; y: number } | null;
  /** The lowest and highest rating shown, for the label. */
  min: number;
  max: number;
}

/**
 * The ratings `values` (oldest first) drawn into `width` × `height` inside a margin of `pad`: the highest at the
 * top, the lowest at the bottom, a flat series across the middle, a single rating in the middle.
 */
export function ratingChart(values: number[], width: number, height: number, pad = 4): Chart {
  if (values.length === 0) return { points: '', last: null, min: 0, max: 0 };
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min;
  const step = values.length > 1 ? (width - 2 * pad) / (values.length - 1) : 0;
  const y = (v: number) => (span === 0 ? height / 2 : pad + ((max - v) / span) * (height - 2 * pad));
  const x = (i: number) => (values.length > 1 ? pad + i * step : width / 2);
  const round = (n: number) => Math.round(n * 10) / 10;
  const end = values.length - 1;
  return {
    points: values.map((v, i) => `${round(x(i))},${round(y(v))}`).join(' '),
    last: { x: round(x(end)), y: round(y(values[end])) },
    min,
    max,
  };
}
