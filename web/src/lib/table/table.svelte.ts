// One room as this client sees it: the connection, and what the table's parts read from the room's state.

import { sortHand } from '../cards';
import { CHATS, ChatState } from '../chat.svelte';
import { Connection, type RoomLink } from '../conn.svelte';
import { money } from '../format';
import { i18n, language, t, tn } from '../i18n.svelte';
import { rememberedLevel } from '../levels';
import { playSound, speak } from '../sound.svelte';
import { tableRules } from '../tables';
import type { LastMove } from '../types';
import type { BotKind } from '../wire';

export class TableState {
  /** The room: a server's, or the page's own offline table. */
  readonly conn: RoomLink;
  /** The room's quick chat: the bubbles by the seats, sending, muting. */
  readonly chat: ChatState;
  // `$derived.by` where a field reads `conn` or `name`: the constructor sets them after the fields.
  readonly room = $derived.by(() => this.conn.room);
  readonly deal = $derived(this.room?.deal ?? null);
  /** This client's seat; null while watching. */
  readonly me = $derived(this.room?.you ?? null);
  readonly players = $derived(this.room?.seats.length ?? 3);
  readonly house = $derived((this.deal ? tableRules(this.deal.rules).table : this.room?.rules.table) === 'house');
  /** A tournament's table: the tournament seats, deals and closes it, so nobody has the host's controls. */
  readonly tournament = $derived(this.room?.mode === 'tournament');
  readonly isHost = $derived.by(
    () => !!this.room && !this.tournament && this.room.hosting,
  );
  readonly inDeal = $derived(!!this.deal && !this.deal.result);
  readonly hand = $derived(sortHand(this.deal?.hand ?? []));
  readonly myTurn = $derived(this.inDeal && this.me !== null && this.deal!.waiting_for.includes(this.me));
  /** The play to beat; null on a lead. */
  readonly prior = $derived(this.deal?.trick?.play ?? null);
  readonly wildRank = $derived(this.deal?.wild_rank ?? null);
  /** The middle or bottom cards are shown and this player has yet to say Seen. */
  readonly mustSee = $derived(!!this.deal && this.deal.phase === 'reveal' && this.me !== null && !this.deal.seen[this.me]);
  /** This player's turn to play (not to bid or say Seen): the selection, Play, Pass and Hint work. */
  readonly playing = $derived(this.myTurn && this.deal?.phase === 'play');
  readonly openSeats = $derived(this.room ? this.room.seats.filter((s) => !s.occupant).length : 0);
  /** The level of the bots the host adds, one seat at a time or every empty seat at once: at first the one
   * this browser last chose for Play vs Bots. */
  botLevel = $state<BotKind>(rememberedLevel());
  /** Seats around the table from this client's point of view: [me, next (left), the one after (right)]. */
  readonly order = $derived(Array.from({ length: this.players }, (_, i) => ((this.me ?? 0) + i) % this.players));
  /** What each seat did last, shown beside it (the server's `last_moves`). */
  readonly lastMoves = $derived(this.deal?.last_moves ?? []);
  /** The deal is over: every hand face up, the last trick still beside the seats. */
  readonly dealOver = $derived(!!this.deal?.result);
  /** Challenges keep the player's own turns and the table's rules fixed (the boards compare players). */
  readonly challenge = $derived(this.room?.mode === 'challenge');
  /** Watching from a `/watch/` link: no seat can be taken by accident. */
  readonly spectator = $derived.by(() => this.name === null);

  constructor(
    readonly code: string,
    /** Null for a spectator, who watches without a name and never sits. */
    readonly name: string | null,
    sit: boolean,
    /** The page's own offline table instead of the server's room `code`. */
    link?: RoomLink,
  ) {
    this.conn = link ?? new Connection(code, name, sit);
    this.chat = new ChatState(
      this.conn,
      (seat) => this.room?.seats[seat]?.key ?? null,
      (chat) => {
        playSound('chat');
        speak(CHATS[chat][i18n.lang === 'zh' ? 'zh' : 'en'], language().tag);
      },
    );
  }

  /** A player's name as shown: bots' names ("Bot Hard 2") in the player's language. */
  shownName(name: string): string {
    const occupant = this.room?.seats.find((s) => s.occupant?.name === name)?.occupant;
    return occupant?.type === 'bot' ? language().botName(name, occupant.level) : name;
  }

  /** The host seats a bot of the chosen level. */
  addBot(seat: number) {
    this.conn.send({ type: 'add_bot', seat, level: this.botLevel });
  }

  /** The host seats a bot of the chosen level at every empty seat. */
  fillWithBots() {
    for (const s of this.room?.seats ?? []) if (!s.occupant) this.addBot(s.seat);
  }

  seatName(seat: number): string {
    const name = this.room?.seats[seat]?.occupant?.name;
    return name ? this.shownName(name) : '—';
  }

  /** A score or balance: dollars at House, points elsewhere. */
  scoreText(n: number): string {
    return this.house ? money(n) : tn('pts', n);
  }

  /** A seat's last move as shown beside it: not the play to beat, which only the middle shows. */
  shownMove(seat: number): LastMove | null {
    const move = this.lastMoves[seat];
    const trick = this.deal?.trick;
    if (move?.move === 'played' && move.in_trick && trick?.seat === seat && !this.dealOver) return null;
    return move;
  }

  /** Confirms first where closing ends a deal or a run. */
  closeRoom() {
    if (confirm(t(this.room?.challenge ? 'abandonConfirm' : 'closeConfirm'))) this.conn.send({ type: 'close' });
  }
}
