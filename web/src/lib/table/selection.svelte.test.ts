// @vitest-environment happy-dom
// The client transform (runes with their effects) needs a browser-like environment.
import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hints, readings } from '../api';
import { dealView, reading } from '../test-fixtures';
import type { DealView, HintPlay } from '../types';
import { Selection, type SelectionTable } from './selection.svelte';

vi.mock('../api', () => ({ hints: vi.fn(), readings: vi.fn() }));

const hint = (cards: string[], main: string): HintPlay => ({ cards, ...reading({ type: 'pair', main }) });
const PAIR_OF_3S = hint(['3S', '3H'], '3');
const PAIR_OF_4S = hint(['4S', '4D'], '4');

/** The player's turn to play on a pair of 2s, with two pairs in hand. */
function tableOnTurn(): SelectionTable & { deal: DealView } {
  const hand = ['3S', '3H', '4S', '4D', '9C'];
  const table = $state({
    deal: dealView({ hand }),
    room: null,
    hand,
    playing: true,
    prior: reading({ type: 'pair', main: '2' }),
    conn: { act: vi.fn() },
  });
  return table;
}

let table: ReturnType<typeof tableOnTurn>;
let selection: Selection;
let cleanup: () => void;

beforeEach(() => {
  vi.mocked(readings).mockResolvedValue({ readings: [] });
  table = tableOnTurn();
  cleanup = $effect.root(() => {
    selection = new Selection(table);
  });
  flushSync();
});

afterEach(() => {
  cleanup();
  vi.resetAllMocks();
});

/** Someone acts: the turn moves on. */
function nextTurn() {
  table.deal = { ...table.deal, actions: [...table.deal.actions, { action: 'pass', seat: 1 }] };
  flushSync();
}

describe('Selection.hint', () => {
  it('selects the next legal play at each press, cycling, asking the server once a turn', async () => {
    vi.mocked(hints).mockResolvedValue([PAIR_OF_3S, PAIR_OF_4S]);
    await selection.hint();
    expect(selection.selected).toEqual(['3S', '3H']);
    await selection.hint();
    expect(selection.selected).toEqual(['4S', '4D']);
    await selection.hint();
    expect(selection.selected).toEqual(['3S', '3H']);
    expect(hints).toHaveBeenCalledTimes(1);

    nextTurn();
    await selection.hint();
    expect(hints).toHaveBeenCalledTimes(2);
  });

  it('says when nothing beats the trick, until the turn moves on', async () => {
    vi.mocked(hints).mockResolvedValue([]);
    await selection.hint();
    expect(selection.noPlay).toBe(true);
    expect(selection.selected).toEqual([]);
    nextTurn();
    expect(selection.noPlay).toBe(false);
  });

  it('drops hints that arrive after the turn moved on', async () => {
    let answer!: (plays: HintPlay[]) => void;
    vi.mocked(hints).mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const pressed = selection.hint();
    nextTurn();
    answer([PAIR_OF_3S]);
    await pressed;
    expect(selection.selected).toEqual([]);
    expect(selection.noPlay).toBe(false);

    vi.mocked(hints).mockResolvedValue([PAIR_OF_4S]);
    await selection.hint();
    expect(selection.selected).toEqual(['4S', '4D']);
  });
});
