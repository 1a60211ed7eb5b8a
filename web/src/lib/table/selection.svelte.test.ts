// @vitest-environment happy-dom
// The client transform (runes with their effects) needs a browser-like environment.
import { flushSync, tick } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hintsOf as hints, readingsOf as readings } from '../engine/engine';
import { dealView, reading } from '../test-fixtures';
import type { DealView, HintPlay } from '../types';
import { Selection, type SelectionTable } from './selection.svelte';

vi.mock('../engine/engine', () => ({ hintsOf: vi.fn(), readingsOf: vi.fn() }));

const hint = (cards: string[], main: string): HintPlay => ({ cards, ...reading({ type: 'pair', main }) });
const PAIR_OF_3S = hint(['3S', '3H'], '3');
const PAIR_OF_4S = hint(['4S', '4D'], '4');

/** The player's turn to play on a pair of 2s, with two pairs in hand. */
function tableOnTurn(): SelectionTable & { deal: DealView; conn: { status: 'connecting' | 'open' | 'closed' } } {
  const hand = ['3S', '3H', '4S', '4D', '9C'];
  const table = $state({
    deal: dealView({ hand }),
    room: null,
    hand,
    playing: true,
    prior: reading({ type: 'pair', main: '2' }),
    conn: { act: vi.fn(), status: 'open' as 'connecting' | 'open' | 'closed' },
  });
  return table;
}

let table: ReturnType<typeof tableOnTurn>;
let selection: Selection;
let cleanup: () => void;

beforeEach(() => {
  vi.mocked(readings).mockResolvedValue({ readings: [] });
  vi.mocked(hints).mockResolvedValue([PAIR_OF_3S, PAIR_OF_4S]);
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

/** Lets every answer on its way arrive. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Someone acts: the turn moves on. */
function nextTurn() {
  table.deal = { ...table.deal, actions: [...table.deal.actions, { action: 'pass', seat: 1 }] };
  flushSync();
}

describe('Selection.hint', () => {
  it('selects the next legal play at each press, cycling, asking the engine once a turn', async () => {
    await settle();
    expect(hints).toHaveBeenCalledTimes(1);
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

  it('says when nothing beats the trick at once, without Hint, until the turn moves on', async () => {
    expect(selection.noPlay).toBe(false);
    vi.mocked(hints).mockResolvedValue([]);
    nextTurn();
    await settle();
    expect(selection.noPlay).toBe(true);
    await selection.hint();
    expect(selection.selected).toEqual([]);
    vi.mocked(hints).mockResolvedValue([PAIR_OF_4S]);
    nextTurn();
    expect(selection.noPlay).toBe(false);
  });

  it('drops hints that arrive after the turn moved on', async () => {
    // A fresh table whose first turn's hints are slow to come.
    cleanup();
    let answer!: (plays: HintPlay[]) => void;
    vi.mocked(hints).mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    table = tableOnTurn();
    cleanup = $effect.root(() => {
      selection = new Selection(table);
    });
    flushSync();
    const pressed = selection.hint();
    vi.mocked(hints).mockResolvedValue([PAIR_OF_4S]);
    nextTurn();
    answer([]);
    await pressed;
    await settle();
    expect(selection.noPlay).toBe(false);
    expect(selection.selected).toEqual([]);
    await selection.hint();
    expect(selection.selected).toEqual(['4S', '4D']);
  });
});

describe('Selection readings', () => {
  it('are read before the next frame when the engine answers at once', async () => {
    vi.mocked(readings).mockReturnValue({ readings: [PAIR_OF_3S] });
    selection.setCard('3S', true);
    selection.setCard('3H', true);
    flushSync();
    await Promise.resolve();
    expect(selection.options).toEqual([PAIR_OF_3S]);
    expect(selection.reason).toBeNull();
  });
});

describe('a play while the connection is down', () => {
  beforeEach(async () => {
    vi.mocked(readings).mockReturnValue({ readings: [PAIR_OF_3S] });
    table.conn.status = 'closed';
    selection.setCard('3S', true);
    selection.setCard('3H', true);
    flushSync();
    await Promise.resolve();
  });

  it('is held with the selection in view, and sent when the table is back on the same turn', async () => {
    selection.play();
    expect(table.conn.act).not.toHaveBeenCalled();
    expect(selection.held).not.toBeNull();
    expect(selection.selected).toEqual(['3S', '3H']);
    table.conn.status = 'open';
    await tick();
    expect(table.conn.act).toHaveBeenCalledWith({ action: 'play', cards: ['3S', '3H'], play: PAIR_OF_3S });
    expect(selection.held).toBeNull();
    expect(selection.selected).toEqual([]);
  });

  it('is dropped if the turn moved on meanwhile, or the selection changed', async () => {
    selection.play();
    nextTurn();
    table.conn.status = 'open';
    await tick();
    expect(table.conn.act).not.toHaveBeenCalled();
    expect(selection.held).toBeNull();

    table.conn.status = 'closed';
    await tick();
    selection.play();
    selection.setCard('9C', true);
    table.conn.status = 'open';
    await tick();
    expect(table.conn.act).not.toHaveBeenCalled();
  });
});
