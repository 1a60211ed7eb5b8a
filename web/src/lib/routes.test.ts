// @vitest-environment happy-dom
// The addresses read back: a player's clean page address and the old hash, a tournament id with dashes.
import { afterEach, describe, expect, it } from 'vitest';
import { currentAddress, playerPath, tournamentsHash } from './routes';

const at = (address: string) => history.replaceState(null, '', address);

afterEach(() => at('/'));

describe('addresses', () => {
  it("reads a player's page at its own address, any name, and at the old hash", () => {
    at(playerPath('Ann Lee/二'));
    expect(location.pathname).toBe('/@/Ann%20Lee%2F%E4%BA%8C');
    expect(currentAddress()).toEqual({ view: 'stats', player: 'Ann Lee/二' });
    at('/#/stats/Ann%20Lee');
    expect(currentAddress()).toEqual({ view: 'stats', player: 'Ann Lee' });
  });

  it('reads a tournament whose id holds dashes, and the lists', () => {
    at(`/${tournamentsHash('house-sit-and-go-3')}`);
    expect(currentAddress()).toEqual({ view: 'tournament', id: 'house-sit-and-go-3' });
    at(`/${tournamentsHash()}`);
    expect(currentAddress()).toEqual({ view: 'tournaments' });
  });

  it("lets a hash route win over the player's page it was opened from", () => {
    at(`${playerPath('Ann')}${tournamentsHash('abc')}`);
    expect(currentAddress()).toEqual({ view: 'tournament', id: 'abc' });
  });
});
