// @vitest-environment happy-dom
// The addresses the client reads: the tournaments' lists and one tournament's page, a recurring event's id
// (its slug and run, with hyphens) among them; a player's clean page address and the old hash; a puzzle and the
// game it came from.
import { afterEach, describe, expect, it } from 'vitest';
import { currentAddress, playerPath, puzzleDealHash, puzzlesHash, tournamentsHash } from './routes';

function at(address: string) {
  history.replaceState(null, '', address.startsWith('#') ? `/${address}` : address);
  return currentAddress();
}

afterEach(() => history.replaceState(null, '', '/'));

describe('a tournament address', () => {
  it("reads the lists, a created event's page and a recurring event's page", () => {
    expect(at(tournamentsHash())).toEqual({ view: 'tournaments' });
    expect(at(tournamentsHash('k3m9pqrs2t'))).toEqual({ view: 'tournament', id: 'k3m9pqrs2t' });
    expect(at(tournamentsHash('hourly-house-29942280'))).toEqual({ view: 'tournament', id: 'hourly-house-29942280' });
    expect(at('#/tournaments/no%20such')).toEqual({ view: 'home' });
  });
});

describe("a player's address", () => {
  it('reads their page at its own address, any name, and at the old hash', () => {
    expect(at(playerPath('Ann Lee/二'))).toEqual({ view: 'stats', player: 'Ann Lee/二' });
    expect(location.pathname).toBe('/@/Ann%20Lee%2F%E4%BA%8C');
    expect(at('#/stats/Ann%20Lee')).toEqual({ view: 'stats', player: 'Ann Lee' });
  });

  it("lets a hash route win over the player's page it was opened from", () => {
    expect(at(`${playerPath('Ann')}${tournamentsHash('abc')}`)).toEqual({ view: 'tournament', id: 'abc' });
  });
});

describe("a puzzle's address", () => {
  it("reads today's puzzle, one puzzle and the game it came from", () => {
    expect(at(puzzlesHash())).toEqual({ view: 'puzzle', id: null });
    expect(at(puzzlesHash('270affe54a'))).toEqual({ view: 'puzzle', id: '270affe54a' });
    expect(at(puzzleDealHash('270affe54a'))).toEqual({ view: 'puzzleDeal', id: '270affe54a' });
    expect(at('#/puzzles/270affe54a/nothing')).toEqual({ view: 'home' });
  });
});
