// The server's error codes (docs/protocol.md, "Error codes"), worded in the player's language by `lang/`. The
// server's English `message` is for logs; an unknown code falls back to it.

import { language } from './i18n.svelte';

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
  | 'unknown_bot'
  | 'run_over'
  | 'challenge_rules'
  | 'challenge_seats'
  | 'challenge_auto_play'
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

/** An error from the server in the player's language: by its code, else its English message. */
export function errorText(code: string | undefined, message: string | undefined): string {
  const errors = language().errors;
  if (code && code in errors) return errors[code as ErrorCode];
  return message ?? code ?? '';
}
