// @vitest-environment happy-dom
// The addresses the client reads: the tournaments' lists and one tournament's page, a recurring event's id
// (its slug and run, with hyphens) among them.
import { describe, expect, it } from 'vitest';
import { currentAddress, tournamentsHash } from './routes';

function at(hash: string) {
  history.replaceState(null, '', `/${hash}`);
  return currentAddress();
}

describe('a tournament address', () => {
  it("reads the lists, a created event's page and a recurring event's page", () => {
    expect(at(tournamentsHash())).toEqual({ view: 'tournaments' });
    expect(at(tournamentsHash('k3m9pqrs2t'))).toEqual({ view: 'tournament', id: 'k3m9pqrs2t' });
    expect(at(tournamentsHash('hourly-house-29942280'))).toEqual({ view: 'tournament', id: 'hourly-house-29942280' });
    expect(at('#/tournaments/no%20such')).toEqual({ view: 'home' });
  });
});
