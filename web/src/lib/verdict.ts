// What a finished deal did for a seat's rating, as the result panel says it (docs/ratings.md, "What counts"):
// the change, or why the deal was not rated (or counted only as a loss); and where a player stands on the
// boards, as the stats page says it.

import { t, tn } from './i18n.svelte';
import type { Standing, Unrated, Verdict } from './types';
import type { Placing } from './wire';

/** Why, in words (the second half of "Not rated: …"). */
function why(reason: Unrated): string {
  switch (reason.reason) {
    case 'no_result':
      return t('whyNoResult');
    case 'closed_by_host':
      return t('whyClosedByHost');
    case 'abandoned':
      return t('whyAbandoned');
    case 'bot_played':
      return t('whyBotPlayed', { bot: reason.bot, of: reason.of });
    case 'passed':
      return t('whyPassed', { passed: reason.passed, chances: reason.chances });
    case 'player_passed':
      return t('whyPlayerPassed');
    case 'same_address':
      return t('whySameAddress');
    case 'same_browser':
      return t('whySameBrowser');
    case 'flagged_pair':
      return t('whyFlaggedPair');
    case 'rally_held':
      return t('rallyHeld');
  }
}

/** The result panel's line for a seat's verdict. */
export function verdictText(verdict: Verdict): string {
  const change =
    verdict.change === null ? '' : t('ratingChange', { change: `${verdict.change >= 0 ? '+' : '−'}${Math.abs(verdict.change)}` });
  if (verdict.reason === null) return change || t('ratingCounted');
  if (verdict.reason.reason === 'rally_held') return t('rallyHeld');
  const line = verdict.counted ? t('lossCounts', { why: why(verdict.reason) }) : t('notRated', { why: why(verdict.reason) });
  return change ? `${line} · ${change}` : line;
}

/** The board names as the stats page shows them. */
function boardName(board: string): string {
  switch (board) {
    case 'overall':
      return t('overallBoard');
    case 'lobby':
      return t('lobbyBoard');
    case 'house':
    case 'noshuffle':
    case 'twoplayer':
      return `${t('rating')}: ${t(board)}`;
    default:
      return board;
  }
}

/** Where a player stands on the boards, a line each. */
export function standingLines(standing: Standing): string[] {
  if (!standing.listed) {
    return [
      t('standingNotListed', {
        deals: Math.min(standing.rated_deals, standing.needs_deals),
        needsDeals: standing.needs_deals,
        opponents: Math.min(standing.opponents, standing.needs_opponents),
        needsOpponents: standing.needs_opponents,
      }),
    ];
  }
  return standing.ranks.map((r) =>
    r.rank === null ? t('standingBeyond', { rank: '1,000', board: boardName(r.board) }) : t('standingRank', { rank: r.rank, board: boardName(r.board) }),
  );
}

/**
 * A board's line for the reader's own row where it has no rank: beyond the first 1,000, or not listed yet and
 * what listing still needs first (rated deals, then different opponents: the row's own `needs_*`).
 */
export function unrankedWords(you: Pick<Placing, 'listed' | 'needs_deals' | 'needs_opponents'>): string {
  if (you.listed) return t('belowRank', { rank: '1,000' });
  if (you.needs_deals > 0) return tn('needsMoreDeals', you.needs_deals);
  if (you.needs_opponents > 0) return tn('needsMoreOpponents', you.needs_opponents);
  return t('notListedYet');
}
