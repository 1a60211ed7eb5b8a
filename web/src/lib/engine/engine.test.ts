// The wrapper over the engine's WebAssembly module, on the module itself (`ddz.wasm`, which the server's
// build.rs builds: `cargo build` first).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { reading } from '../test-fixtures';
import type { Action, DealView, Position } from '../wire';
import { type Engine, engineFromBytes, type OfflineTable } from './engine';

let engine: Engine;

/** A House position on a free lead unless `prior` says otherwise. */
const at = (fields: Partial<Position> & Pick<Position, 'hand'>): Position => ({
  rules: 'house',
  wild_rank: null,
  prior: null,
  ...fields,
});

beforeAll(async () => {
  engine = await engineFromBytes(readFileSync(new URL('./ddz.wasm', import.meta.url)));
});

describe('the engine in the page', () => {
  it('reads a triple with the Wild two ways on a lead', () => {
    const answer = engine.readings(at({ hand: ['3S', '3H', '3D', 'W', '4C'], cards: ['3S', '3H', '3D', 'W'] }));
    expect(answer.readings.map((r) => r.text)).toEqual(['triple of 3s + single', 'bomb of 3s (W as 3)']);
  });

  it('says why a selection does not beat the trick', () => {
    const prior = reading({ type: 'pair', main: '5', ranks: '55' });
    const answer = engine.readings(at({ hand: ['3S', '3H', '4C'], cards: ['3S', '3H'], prior }));
    expect(answer.readings).toEqual([]);
    expect(answer.refusal?.kind).toBe('does_not_beat');
  });

  it("lists every legal play, the cards from the hand, in Hint's order", () => {
    const { plays, truncated } = engine.hints(at({ hand: ['3S', '3H', '4C'] }));
    // On a lead: the pair whole first, then the single that splits nothing, the split pair last.
    expect(plays.map((p) => p.cards)).toEqual([['3S', '3H'], ['4C'], ['3S']]);
    expect(truncated).toBe(false);
  });

  it('throws the reason for a malformed position, and keeps answering after it', () => {
    expect(() => engine.hints(at({ hand: ['3S', '3S'] }))).toThrow(/3S/);
    expect(engine.hints(at({ hand: ['3S'] })).plays).toHaveLength(1);
  });
});

describe('Play vs 2 Bots in the page', () => {
  const house = { table: 'house', wild: true, wild_rank: false } as const;
  const seed = '07'.repeat(32);
  const table = (actions: Action[]): OfflineTable => ({
    rules: house,
    names: ['Ann', '', ''],
    bots: [null, 'normal', 'normal'],
    deals: [{ rules: house, seed, actions }],
    seat: 0,
  });

  it('names the bots as the server names them', () => {
    expect(engine.offline(table([])).names).toEqual(['Ann', 'Bot Normal', 'Bot Normal 2']);
  });

  it('plays a whole deal: the bots answer, the player plays its first choice, the money adds up', () => {
    const actions: Action[] = [];
    for (let step = 0; step < 200; step++) {
      const state = engine.offline(table(actions));
      const deal = state.deal!;
      if (deal.result) {
        expect(state.deals_played).toBe(1);
        expect(state.balances.reduce((a, b) => a + b, 0)).toBe(300);
        expect(state.balances).toEqual(deal.result.score.map((delta) => 100 + delta));
        expect(state.bot).toBeNull();
        return;
      }
      expect(deal.hand).toHaveLength(deal.hand_sizes[0]);
      if (state.bot) {
        actions.push(state.bot);
        continue;
      }
      expect(deal.waiting_for).toContain(0);
      actions.push(mine(deal));
    }
    expect.unreachable('the deal ends within 200 actions');
  });

  it("refuses an action the rules refuse, saying which, and never shows the others' hands", () => {
    const state = engine.offline(table([]));
    expect(state.deal!.hand_sizes).toEqual([17, 17, 17]);
    expect(state.deal!.bottom).toBeNull();
    expect(() => engine.offline(table([{ action: 'seen', seat: 0 }]))).toThrow(/action 1 of deal 1/);
  });
});

/** The player's move: take the middle cards, say Seen, lead the smallest single, or pass. */
function mine(deal: DealView): Action {
  if (deal.phase === 'auction') return { action: 'take', seat: 0 };
  if (deal.phase === 'reveal') return { action: 'seen', seat: 0 };
  if (deal.trick) return { action: 'pass', seat: 0 };
  const plays = engine.hints(at({ hand: deal.hand!, rules: deal.rules, wild_rank: deal.wild_rank })).plays;
  const single = plays.filter((p) => p.cards.length === 1).at(-1) ?? plays[0];
  return { action: 'play', seat: 0, cards: single.cards, play: single };
}
