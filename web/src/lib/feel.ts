// What the table's sounds, spoken calls and effects are for each action: pure, so that the unit tests can
// check them. The sounds themselves (`sound.svelte.ts`) and the effects (`components/table/Effect.svelte`)
// only play what these say.

import type { Action, Reading as Play } from './types';

/** A sound the table makes: one per kind of event, so that a player can tell them apart without looking. */
export type SoundKind =
  | 'play'
  | 'pass'
  | 'bomb'
  | 'rocket'
  | 'airplane'
  | 'spring'
  | 'turn'
  | 'clock'
  | 'win'
  | 'loss'
  | 'chat';

/** The plays that get a short effect on the felt and a sound of their own. */
export type Effect = 'bomb' | 'rocket' | 'airplane' | 'spring';

/** An airplane is a run of two or more triples (with or without wings). */
export function playEffect(play: Play): Effect | null {
  if (play.type === 'bomb') return 'bomb';
  if (play.type === 'rocket') return 'rocket';
  if (play.type === 'triples' && play.length >= 2) return 'airplane';
  return null;
}

/** The sound of an action at the table; null for one that makes none (Seen, a deal's limit). */
export function actionSound(action: Action): SoundKind | null {
  if (action.action === 'play') return playEffect(action.play) ?? 'play';
  if (action.action === 'pass') return 'pass';
  if (action.action === 'take' || action.action === 'bid' || action.action === 'call' || action.action === 'rob')
    return 'play';
  return null;
}

type Voice = 'en' | 'zh';

const RANK_WORDS_EN: Record<string, string> = {
  T: '10',
  J: 'Jack',
  Q: 'Queen',
  K: 'King',
  A: 'Ace',
  BJ: 'Black Joker',
  RJ: 'Red Joker',
  W: 'Wild',
};
const RANK_WORDS_ZH: Record<string, string> = { T: '10', '2': '二', BJ: '小王', RJ: '大王', W: '百搭' };

/** A rank as a caller says it. */
function rankWord(rank: string, voice: Voice): string {
  return (voice === 'en' ? RANK_WORDS_EN : RANK_WORDS_ZH)[rank] ?? rank;
}

/** What a caller says for a play: the rank of a single or a pair, else the play's name (as Happy Dou Dizhu does). */
function playCall(play: Play, voice: Voice): string {
  const rank = rankWord(play.main, voice);
  const attached = play.attach_count > 0;
  if (voice === 'zh') {
    switch (play.type) {
      case 'single':
        return rank;
      case 'pair':
        return `对${rank}`;
      case 'triples':
        if (play.length >= 2) return '飞机';
        return play.attach === 'pairs' ? '三带一对' : attached ? '三带一' : `三个${rank}`;
      case 'straight':
        return '顺子';
      case 'pair_run':
        return '连对';
      case 'four_with_two':
        return play.attach === 'pairs' ? '四带两对' : '四带二';
      case 'bomb':
        return '炸弹';
      case 'rocket':
        return '王炸';
    }
  }
  switch (play.type) {
    case 'single':
      return rank;
    case 'pair':
      return `Pair of ${rank}s`;
    case 'triples':
      if (play.length >= 2) return 'Airplane';
      return attached ? `Three ${rank}s with ${play.attach === 'pairs' ? 'a pair' : 'one'}` : `Three ${rank}s`;
    case 'straight':
      return 'Straight';
    case 'pair_run':
      return 'Pair run';
    case 'four_with_two':
      return 'Four with two';
    case 'bomb':
      return 'Bomb';
    case 'rocket':
      return 'Rocket';
  }
  return play.text;
}

/** What a caller says for an action, in the voice's language; null for actions said by nothing. */
export function actionSpeech(action: Action, voice: Voice): string | null {
  const zh = voice === 'zh';
  switch (action.action) {
    case 'play':
      return playCall(action.play, voice);
    case 'pass':
      return zh ? '要不起' : 'Pass';
    case 'take':
      return zh ? '拿底牌' : 'Take';
    case 'bid':
      return action.bid === 0 ? (zh ? '不叫' : 'No bid') : zh ? `${action.bid}分` : `Bid ${action.bid}`;
    case 'call':
      return action.call ? (zh ? '叫地主' : 'Landlord') : zh ? '不叫' : 'No call';
    case 'rob':
      return action.rob ? (zh ? '抢地主' : 'Rob') : zh ? '不抢' : 'No rob';
    default:
      return null;
  }
}
