// The server's error codes (docs/protocol.md, "Error codes") in the player's language. The server's
// English `message` is for logs; an unknown code falls back to it.

import { i18n } from './i18n.svelte';

export type ErrorCode =
  | 'deal_over'
  | 'not_your_turn'
  | 'wrong_phase'
  | 'must_take'
  | 'bad_bid'
  | 'bid_too_low'
  | 'declined_cannot_rob'
  | 'already_seen'
  | 'not_in_hand'
  | 'cards_do_not_match'
  | 'not_that_reading'
  | 'does_not_beat'
  | 'cannot_pass_on_lead'
  | 'no_cards'
  | 'wild_alone'
  | 'wild_with_both_jokers'
  | 'four_in_a_row'
  | 'two_or_joker_in_run'
  | 'not_in_deck'
  | 'not_a_play'
  | 'room_closed'
  | 'seat_taken'
  | 'no_such_seat'
  | 'room_full'
  | 'already_seated'
  | 'not_host'
  | 'deal_in_progress'
  | 'seats_empty'
  | 'no_deal'
  | 'not_seated'
  | 'not_house'
  | 'unknown_bot'
  | 'run_over'
  | 'challenge_rules'
  | 'challenge_seats'
  | 'unknown_room'
  | 'name_taken'
  | 'bad_name'
  | 'bad_message'
  | 'already_in_room'
  | 'frame_too_large'
  | 'rate_limited'
  | 'busy'
  | 'server_full'
  | 'bad_request'
  | 'hand_too_large'
  | 'not_found'
  | 'rally_played'
  | 'internal';

const en: Record<ErrorCode, string> = {
  deal_over: 'The deal is over.',
  not_your_turn: 'It is not your turn.',
  wrong_phase: 'That is not possible at this point of the deal.',
  must_take: 'You must take the middle cards.',
  bad_bid: 'Bid 1, 2 or 3, or pass.',
  bid_too_low: 'Your bid must be higher than the current bid.',
  declined_cannot_rob: 'You declined to call, so you cannot rob.',
  already_seen: 'You have already acknowledged the middle cards.',
  not_in_hand: 'Those cards are not in your hand.',
  cards_do_not_match: 'The cards do not match the play.',
  not_that_reading: 'The cards cannot be played that way.',
  does_not_beat: 'That does not beat the play on the table.',
  cannot_pass_on_lead: 'You lead this trick: you must play.',
  no_cards: 'Select cards to play.',
  wild_alone: 'The Wild cannot be played alone.',
  wild_with_both_jokers: 'The Wild with both jokers is not a play.',
  four_in_a_row: 'Four in a row is not a straight: a straight needs five cards.',
  two_or_joker_in_run: '2s and jokers cannot be in a straight or run at this table.',
  not_in_deck: "That card is not in this table's deck.",
  not_a_play: 'Those cards are not a play.',
  room_closed: 'The room is closed.',
  seat_taken: 'That seat is taken.',
  no_such_seat: 'There is no such seat at this table.',
  room_full: 'Every seat is taken.',
  already_seated: 'You are already seated here.',
  not_host: 'Only the host can do that.',
  deal_in_progress: 'Not while a deal is in progress.',
  seats_empty: 'Every seat must be filled before a deal starts.',
  no_deal: 'There is no deal in progress.',
  not_seated: 'You are not seated at this table.',
  not_house: 'The Wild is a House option.',
  unknown_bot: 'Unknown bot level.',
  run_over: 'The run is over.',
  challenge_rules: 'Challenges always play House rules with the Wild.',
  challenge_seats: "A challenge is one player against the challenge's bots.",
  unknown_room: 'There is no such room.',
  name_taken: 'That name is already connected to this room.',
  bad_name: 'A name is 1 to 24 characters, without control or invisible characters.',
  bad_message: 'The server did not understand that message.',
  already_in_room: 'You are already in the room.',
  frame_too_large: 'That message was too large; the connection closed.',
  rate_limited: 'Too many requests: slow down a little.',
  busy: 'The server is busy: try again in a moment.',
  server_full: 'The server is full: try again soon.',
  bad_request: 'The server could not use that request.',
  hand_too_large: 'That is more cards than any hand holds.',
  not_found: 'Not found.',
  rally_played: "You have already played today's rally.",
  internal: 'Something went wrong on the server: please try again.',
};

const zh: Record<ErrorCode, string> = {
  deal_over: '本局已经结束。',
  not_your_turn: '还没轮到你。',
  wrong_phase: '现在不能这样做。',
  must_take: '你必须拿底牌。',
  bad_bid: '请叫 1、2 或 3 分，或者不叫。',
  bid_too_low: '叫分必须比当前的高。',
  declined_cannot_rob: '你没有叫地主，不能抢。',
  already_seen: '你已经确认过底牌了。',
  not_in_hand: '这些牌不在你手里。',
  cards_do_not_match: '牌和出法不一致。',
  not_that_reading: '这些牌不能这样出。',
  does_not_beat: '压不过桌上的牌。',
  cannot_pass_on_lead: '这一轮由你先出，必须出牌。',
  no_cards: '请先选牌。',
  wild_alone: '百搭牌不能单独出。',
  wild_with_both_jokers: '百搭牌加两张王不是合法的牌型。',
  four_in_a_row: '四张连牌不是顺子：顺子至少五张。',
  two_or_joker_in_run: '这张牌桌上 2 和王不能进顺子或连对。',
  not_in_deck: '这张牌桌的牌里没有这张牌。',
  not_a_play: '这些牌不成牌型。',
  room_closed: '房间已关闭。',
  seat_taken: '这个座位已经有人了。',
  no_such_seat: '这张牌桌没有这个座位。',
  room_full: '座位已满。',
  already_seated: '你已经坐下了。',
  not_host: '只有房主可以这样做。',
  deal_in_progress: '牌局进行中，不能这样做。',
  seats_empty: '坐满后才能开局。',
  no_deal: '现在没有进行中的牌局。',
  not_seated: '你没有坐在这张牌桌上。',
  not_house: '百搭牌只用于奖池场牌桌。',
  unknown_bot: '没有这个级别的机器人。',
  run_over: '挑战已经结束。',
  challenge_rules: '挑战总是用带百搭牌的奖池场规则。',
  challenge_seats: '挑战是一位玩家对挑战自己的机器人。',
  unknown_room: '没有这个房间。',
  name_taken: '这个名字已经在房间里连接着。',
  bad_name: '名字须为 1 到 24 个字符，不能含控制字符或不可见字符。',
  bad_message: '服务器无法理解这条消息。',
  already_in_room: '你已经在房间里了。',
  frame_too_large: '消息太大，连接已关闭。',
  rate_limited: '请求太频繁，请稍慢一点。',
  busy: '服务器繁忙，请稍后再试。',
  server_full: '服务器已满，请稍后再试。',
  bad_request: '服务器无法处理这个请求。',
  hand_too_large: '牌数超过了任何一手牌。',
  not_found: '找不到。',
  rally_played: '你今天已经打过每日挑战了。',
  internal: '服务器出了问题，请再试一次。',
};

/** An error from the server in the player's language: by its code, else its English message. */
export function errorText(code: string | undefined, message: string | undefined): string {
  const table = i18n.lang === 'zh' ? zh : en;
  if (code && code in table) return table[code as ErrorCode];
  return message ?? code ?? '';
}
