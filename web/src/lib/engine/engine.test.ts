// The wrapper over the engine's WebAssembly module, on the module itself (`ddz.wasm`, which the server's
// build.rs builds: `cargo build` first).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { reading } from '../test-fixtures';
import type { Position } from '../wire';
import { type Engine, engineFromBytes } from './engine';

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
