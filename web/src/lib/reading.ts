// A play's reading in the player's language, worded here from the reading's fields (type, main rank, length,
// attachments, strength, what wild cards stand for) in the server's grammar, with the ranks as the cards show
// them (10, not T). Only wording: what a selection may be read as always comes from the server.

import { i18n } from './i18n.svelte';
import type { Reading, Refusal } from './types';

const ORDER = '3456789TJQKA2';

/** A rank of a reading (`T`, `B` and `R` for 10 and the jokers, `W` the Wild) as the cards show it. */
function rankEn(rank: string): string {
  return { T: '10', B: 'Black Joker', R: 'Red Joker' }[rank] ?? rank;
}

function rankZh(rank: string): string {
  return { T: '10', B: '小王', R: '大王', W: '百搭' }[rank] ?? rank;
}

/** The lowest rank of a run whose top is `main` and which is `length` ranks long. */
function low(r: Reading): string {
  return ORDER[ORDER.indexOf(r.main) - (r.length - 1)] ?? r.main;
}

function en(r: Reading): string {
  const main = rankEn(r.main);
  const many = `${main}s`;
  const run = `${rankEn(low(r))}-${main}`;
  let text: string;
  switch (r.type) {
    case 'single':
      text = `single ${main}`;
      break;
    case 'pair':
      text = `pair of ${many}`;
      break;
    case 'triples':
      text = r.length === 1 ? `triple of ${many}` : `triple run ${run}`;
      break;
    case 'straight':
      text = `straight ${run}`;
      break;
    case 'pair_run':
      text = `pair run ${run}`;
      break;
    case 'four_with_two':
      text = `four ${many} with two`;
      break;
    case 'bomb':
      text = `bomb of ${many}${r.strength === 'soft' ? ' (soft)' : r.strength === 'pure_wild' ? ' (pure wild)' : ''}`;
      break;
    case 'rocket':
      text = 'rocket';
      break;
    default:
      return r.text;
  }
  if (r.attach === 'singles') text += r.attach_count > 1 ? ` + ${r.attach_count} singles` : ' + single';
  if (r.attach === 'pairs') text += r.attach_count > 1 ? ` + ${r.attach_count} pairs` : ' + pair';
  if (r.wild_as) {
    const source = r.ranks.includes('W') ? 'W' : 'wild';
    text += ` (${source} as ${[...r.wild_as].map(rankEn).join(', ')})`;
  }
  return text;
}

function zh(r: Reading): string {
  const main = rankZh(r.main);
  const run = `${rankZh(low(r))}-${main}`;
  let text: string;
  switch (r.type) {
    case 'single':
      text = `单张 ${main}`;
      break;
    case 'pair':
      text = `对 ${main}`;
      break;
    case 'triples':
      text = r.length === 1 ? `三个 ${main}` : `飞机 ${run}`;
      break;
    case 'straight':
      text = `顺子 ${run}`;
      break;
    case 'pair_run':
      text = `连对 ${run}`;
      break;
    case 'four_with_two':
      text = `四个 ${main} 带二`;
      break;
    case 'bomb':
      text = `炸弹 ${main}${r.strength === 'soft' ? '（软炸）' : r.strength === 'pure_wild' ? '（纯癞子）' : ''}`;
      break;
    case 'rocket':
      text = '王炸';
      break;
    default:
      return r.text;
  }
  if (r.attach === 'singles') text += r.attach_count > 1 ? ` 带 ${r.attach_count} 张单牌` : ' 带单张';
  if (r.attach === 'pairs') text += r.attach_count > 1 ? ` 带 ${r.attach_count} 对` : ' 带一对';
  if (r.wild_as) {
    const source = r.ranks.includes('W') ? '百搭' : '癞子';
    text += `（${source}当 ${[...r.wild_as].map(rankZh).join('、')}）`;
  }
  return text;
}

export function readingText(r: Reading): string {
  return i18n.lang === 'zh' ? zh(r) : en(r);
}

type Kind = Exclude<Refusal['kind'], 'does_not_beat'>;

const REFUSALS_EN: Record<Kind, string> = {
  nothing_selected: 'Select cards to play.',
  not_in_hand: 'Those cards are not in your hand.',
  not_a_play: 'Those cards are not a play.',
  wild_alone: 'The Wild cannot be played alone.',
  wild_with_both_jokers: 'The Wild with both jokers is not a play: a rocket is two cards.',
  four_in_a_row: 'Four in a row is not a straight: a straight needs five cards.',
  two_or_joker_in_run: '2s and jokers cannot be in a straight or run at this table.',
  not_in_deck: "Those cards are not in this table's deck.",
};

const REFUSALS_ZH: Record<Kind, string> = {
  nothing_selected: '请选择要出的牌',
  not_in_hand: '这些牌不在你手里',
  not_a_play: '这些牌不成一手牌',
  wild_alone: '百搭牌不能单独打出',
  wild_with_both_jokers: '百搭牌加两张王不是一手牌：王炸只有两张',
  four_in_a_row: '四张连牌不是顺子：顺子至少五张',
  two_or_joker_in_run: '2 和王不能组成顺子或连牌',
  not_in_deck: '这些牌不属于这副牌',
};

/** Why a selection cannot be played, in the player's language (the server's words only without a refusal). */
export function refusalText(refusal: Refusal | undefined, error: string | undefined): string | null {
  if (!refusal) return error ?? null;
  const chinese = i18n.lang === 'zh';
  if (refusal.kind === 'does_not_beat')
    return chinese
      ? `${zh(refusal.reading)} 压不过 ${zh(refusal.prior)}`
      : `${en(refusal.reading)} does not beat ${en(refusal.prior)}`;
  return (chinese ? REFUSALS_ZH : REFUSALS_EN)[refusal.kind];
}
