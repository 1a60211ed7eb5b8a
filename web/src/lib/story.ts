// The story of a deal in the player's language: a seat's word in the auction, the deal's log line by line,
// and how its amount came about. Only wording: which move counts and how the amount adds up come from the
// server (`last_moves`, `score_lines`; docs/protocol.md).

import { rankOf, rankText, SUIT } from './cards';
import { money } from './format';
import { t, tn } from './i18n.svelte';
import { readingText } from './reading';
import { tableRules } from './tables';
import type { Action, DealView, ScoreLine } from './types';

/** A seat's name as shown. */
type SeatName = (seat: number) => string;

/** A seat's word in the auction, shown beside it while the auction runs. */
export function auctionWords(a: Action): string {
  switch (a.action) {
    case 'take':
      return t('landlord');
    case 'pass':
      return t('pass');
    case 'bid':
      return a.bid === 0 ? t('noBid') : t('bid', { n: a.bid });
    case 'call':
      return a.call ? t('call') : t('decline');
    case 'rob':
      return a.rob ? t('rob') : t('noRob');
    default:
      return '';
  }
}

const isBomb = (a: Action) => a.action === 'play' && (a.play.type === 'bomb' || a.play.type === 'rocket');

/** Who won, in words: a Two Player table has one farmer. */
export function outcomeText(deal: DealView): string {
  const r = deal.result!;
  if (r.landlord_won === null) return t('noWinner');
  if (r.landlord_won) return t('landlordWins');
  return t(deal.hand_sizes.length === 2 ? 'farmerWins' : 'farmersWin');
}

/** The deal's amount explained, one sentence per `score_lines` line. */
export function scoreLineTexts(deal: DealView, name: SeatName): string[] {
  const house = tableRules(deal.rules).table === 'house';
  const r = deal.result;
  // The bomb lines follow the deal's bombs and rockets in order: each is worded by its kind.
  const bombs = deal.actions.filter(isBomb).map((a) => t(a.action === 'play' && a.play.type === 'rocket' ? 'rocketWord' : 'bombWord'));
  let nextBomb = 0;
  const bomb = () => bombs[nextBomb++] ?? t('bombWord');
  const line = (l: ScoreLine): string => {
    switch (l.line) {
      case 'ante':
        return t('scoreAnte', { landlord: money(l.landlord), tenant: money(l.tenant) });
      case 'bomb_collected':
        return t('scoreBombCollected', { name: name(l.seat), bomb: bomb(), landlord: money(l.landlord), tenant: money(l.tenant) });
      case 'bomb_free':
        return t('scoreBombFree', { name: name(l.seat), bomb: bomb() });
      case 'pot_won': {
        const winners = l.won.flatMap((amount, seat) => (amount > 0 ? [{ seat, amount }] : []));
        if (winners.length !== 2) return t('scorePotWon', { name: name(winners[0]?.seat ?? 0), pot: money(l.pot) });
        const [a, b] = winners;
        const params = { a: name(a.seat), b: name(b.seat), pot: money(l.pot), x: money(a.amount), y: money(b.amount) };
        return a.amount === b.amount ? t('scorePotSplit', { ...params, each: money(a.amount) }) : t('scorePotSplitOdd', params);
      }
      case 'auction_value':
        if (deal.hand_sizes.length === 3) return t('scoreBid', { n: l.value });
        return l.robs === 0 ? t('scoreCalled') : t('scoreRobsValue', { robs: tn('scoreRobs', l.robs), value: l.value });
      case 'multiplied':
        return t('scoreMultiplied', { name: name(l.seat), bomb: bomb(), factor: l.factor, multiplier: l.multiplier });
      case 'spring':
        return t('scoreSpring', { multiplier: l.multiplier });
      case 'capped':
        return t('scoreCapped', { cap: l.cap });
      case 'allowance':
        return t('scoreAllowance', { name: name(l.seat), cards: l.allowance === 1 ? t('oneCard') : t('cards', { n: l.allowance }) });
      case 'shares':
        return t(r?.landlord_won ? 'scoreSharesWin' : 'scoreSharesLose', {
          v: r?.auction_value ?? 0,
          m: r?.multiplier ?? 0,
          share: l.share,
          shares: tn('shares', l.farmers),
        });
      case 'no_score':
        return l.end === 'deal_limit' ? t('scoreDealLimit') : t(house ? 'scoreAbandonedHouse' : 'scoreAbandoned');
    }
  };
  return deal.score_lines.map(line);
}

/** One action of the deal in words; null for a Seen, which tells nobody anything. */
export function actionText(a: Action, name: SeatName): string | null {
  switch (a.action) {
    case 'take':
      return t('actTake', { name: name(a.seat) });
    case 'pass':
      return t('actPass', { name: name(a.seat) });
    case 'bid':
      return a.bid === 0 ? t('actNoBid', { name: name(a.seat) }) : t('actBid', { name: name(a.seat), n: a.bid });
    case 'call':
      return t(a.call ? 'actCall' : 'actDecline', { name: name(a.seat) });
    case 'rob':
      return t(a.rob ? 'actRob' : 'actNoRob', { name: name(a.seat) });
    case 'seen':
      return null;
    case 'play':
      return t(isBomb(a) ? 'actBomb' : 'actPlay', { name: name(a.seat), play: readingText(a.play) });
    case 'deal_limit':
      return t('actDealLimit');
    case 'abandon':
      return t('actAbandon');
  }
}

/** A line of the deal's log and the step it tells of: the number of the deal's actions taken by then. */
export interface LogEntry {
  text: string;
  step: number;
}

/** A House first deal's priority draw, round by round (each drawing seat's card), then who drew highest. */
export function priorityDrawLines(deal: DealView, name: SeatName): { rounds: string[]; winner: string } | null {
  if (deal.priority_draws.length === 0) return null;
  const card = (c: string) => rankText(rankOf(c)) + (SUIT[c[1]] ?? '');
  const rounds = deal.priority_draws.map((round, i) =>
    t('priorityRound', { n: i + 1, draws: round.flatMap((c, seat) => (c ? [`${name(seat)} ${card(c)}`] : [])).join(' · ') }),
  );
  return { rounds, winner: t('priorityWinner', { name: name(deal.first) }) };
}

/**
 * The deal line by line: a first deal's priority draw, every auction step, who became the landlord, every play (with its reading) and
 * pass, the turns the clock had the bot play (`timedOut`: indexes in `deal.actions`), and the result.
 */
export function dealLogEntries(deal: DealView, timedOut: number[], name: SeatName): LogEntry[] {
  const entries: LogEntry[] = [];
  // The priority draw that chose who speaks first, before the auction.
  const draw = priorityDrawLines(deal, name);
  if (draw) entries.push(...[...draw.rounds, draw.winner].map((text) => ({ text, step: 0 })));
  let landlordNamed = false;
  deal.actions.forEach((a, i) => {
    // The landlord is named once the auction is behind: at the first Seen or play.
    if (!landlordNamed && deal.landlord !== null && (a.action === 'seen' || a.action === 'play')) {
      entries.push({ text: t('actLandlord', { name: name(deal.landlord) }), step: i });
      landlordNamed = true;
    }
    const text = actionText(a, name);
    if (text) entries.push({ text: timedOut.includes(i) ? t('actTimedOut', { line: text }) : text, step: i + 1 });
  });
  const end = deal.actions.length;
  if (deal.result) entries.push(...[outcomeText(deal), ...scoreLineTexts(deal, name)].map((text) => ({ text, step: end })));
  return entries;
}

/** The deal's log as the table shows it: the lines of `dealLogEntries`. */
export function dealLog(deal: DealView, timedOut: number[], name: SeatName): string[] {
  return dealLogEntries(deal, timedOut, name).map((e) => e.text);
}
