import { describe, expect, it } from 'vitest';
import { ratingChart } from './chart';

describe('ratingChart', () => {
  it('puts the highest rating at the top and the lowest at the bottom, oldest on the left', () => {
    const chart = ratingChart([1500, 1530, 1470], 104, 54, 2);
    expect(chart.points).toBe('2,27 52,2 102,52');
    expect([chart.min, chart.max]).toEqual([1470, 1530]);
    expect(chart.last).toEqual({ x: 102, y: 52 });
  });

  it('draws a flat series across the middle and a single rating in the middle', () => {
    expect(ratingChart([1500, 1500], 100, 40, 0).points).toBe('0,20 100,20');
    expect(ratingChart([1512], 100, 40).last).toEqual({ x: 50, y: 20 });
  });

  it('has nothing to draw without ratings', () => {
    expect(ratingChart([], 100, 40)).toMatchObject({ points: '', last: null });
  });
});
