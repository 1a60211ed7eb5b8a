import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from './i18n.svelte';
import { standingLines, unrankedWords, verdictText } from './verdict';

afterEach(() => {
  i18n.lang = 'en';
});

describe('verdictText', () => {
  it('says what a counted deal did to the rating', () => {
    expect(verdictText({ counted: true, reason: null, change: 12 })).toBe('Rating +12');
    expect(verdictText({ counted: true, reason: null, change: -7 })).toBe('Rating −7');
  });

  it('says why a deal was not rated, or counted only as a loss', () => {
    const botPlayed = { reason: 'bot_played', bot: 8, of: 10 } as const;
    expect(verdictText({ counted: false, reason: botPlayed, change: null })).toBe(
      'Not rated: the bot played 8 of your 10 turns',
    );
    expect(verdictText({ counted: true, reason: botPlayed, change: -9 })).toBe(
      'Counted as a loss: the bot played 8 of your 10 turns · Rating −9',
    );
    expect(verdictText({ counted: false, reason: { reason: 'same_address' }, change: null })).toBe(
      'Not rated: another player at this table connects from your address',
    );
    expect(verdictText({ counted: true, reason: { reason: 'rally_held' }, change: null })).toBe(
      'Rated once today’s rally closes',
    );
    i18n.lang = 'zh';
    expect(verdictText({ counted: false, reason: { reason: 'same_browser' }, change: null })).toBe(
      '本局不计分：这桌另一位玩家和你使用同一个浏览器',
    );
  });
});

describe('standingLines', () => {
  it('says how far a name is from the boards, or its ranks once listed', () => {
    const base = { rated_deals: 7, opponents: 3, listed: false, needs_deals: 20, needs_opponents: 10, ranks: [] };
    expect(standingLines(base)).toEqual(['Not on the boards yet: 7 of 20 rated deals, 3 of 10 different opponents']);
    const listed = { ...base, rated_deals: 25, opponents: 12, listed: true, ranks: [{ board: 'overall', rank: 3 }, { board: 'house', rank: null }] };
    expect(standingLines(listed)).toEqual(['#3 on Overall', 'below #1,000 on Rating: House']);
  });
});

describe('unrankedWords', () => {
  const you = { listed: false, needs_deals: 3, needs_opponents: 3 };

  it('says what listing needs first: rated deals, then different opponents', () => {
    expect(unrankedWords(you)).toBe('Not listed yet: needs 3 more rated deals');
    expect(unrankedWords({ ...you, needs_deals: 1 })).toBe('Not listed yet: needs 1 more rated deal');
    expect(unrankedWords({ ...you, needs_deals: 0 })).toBe('Not listed yet: needs 3 more different opponents');
    expect(unrankedWords({ ...you, needs_deals: 0, needs_opponents: 0 })).toBe('Not listed yet');
    i18n.lang = 'zh';
    expect(unrankedWords(you)).toBe('尚未上榜：还需 3 局计分局');
  });

  it('says a listed row beyond the ranks counted', () => {
    expect(unrankedWords({ ...you, listed: true })).toBe('Below #1,000');
  });
});
