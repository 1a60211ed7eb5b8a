import { describe, expect, it } from 'vitest';
import type { Reading } from '../types';
import { naturalOrder } from './readings';

const reading = (main: string, wild_as: string | null, type: Reading['type'] = 'triples', length = 1): Reading => ({
  type,
  main,
  length,
  attach: 'pairs',
  attach_count: 1,
  strength: null,
  ranks: '',
  wild_as,
  text: `${type} ${main} wild as ${wild_as}`,
});

describe('naturalOrder', () => {
  it('offers the reading with the fewest wild cards standing in first, then the highest', () => {
    // Four wild-rank Jacks and a pair of 8s: as themselves they are a bomb of Jacks with the pair; standing in
    // for 5s or 8s they are other plays.
    const fives = reading('5', '5558');
    const jacks = reading('J', '', 'four_with_two');
    const eights = reading('8', '8');
    const kings = reading('K', '8');
    expect(naturalOrder([fives, eights, jacks, kings]).map((r) => r.main)).toEqual(['J', 'K', '8', '5']);
  });

  it('keeps every reading', () => {
    const all = [reading('3', '3'), reading('4', null), reading('2', '22')];
    expect(naturalOrder(all)).toHaveLength(3);
  });
});
