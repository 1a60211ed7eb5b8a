// The order the readings of a selection are offered in: the natural one first (the fewest wild cards standing
// in for others, then the highest main rank, then the longest), so that a tap on Play plays what a player
// would mean; the others follow in the same order.

import type { Reading } from '../types';

const ORDER = '3456789TJQKA2';

/** How many wild cards stand in for another rank in the reading (`wild_as` names their ranks). */
function wildsUsed(r: Reading): number {
  return (r.wild_as ?? '').replace(/[\s,]/g, '').length;
}

function height(r: Reading): number {
  const i = ORDER.indexOf(r.main);
  return i >= 0 ? i : ORDER.length + ['BJ', 'RJ', 'W'].indexOf(r.main) + 1;
}

/** The readings, the natural one first. */
export function naturalOrder(readings: Reading[]): Reading[] {
  return [...readings].sort((a, b) => wildsUsed(a) - wildsUsed(b) || height(b) - height(a) || b.length - a.length);
}
