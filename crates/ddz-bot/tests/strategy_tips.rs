//! The strategy tips (House rules text, "Strategy tips"), each as a small constructed position where the
//! bot must choose the right play. Positions are built as the seat's view: its hand, the landlord,
//! every seat's card count and the play to beat.

use ddz_bot::{Bot, BotKind};
use ddz_engine::{
    Action, Auction, CardSet, Counts, DealView, Kind, Phase, Play, Rank, Rules, Seat, Trick, legal_plays_vec, readings,
};

struct Position {
    rules: Rules,
    me: Seat,
    landlord: Seat,
    hand: &'static str,
    sizes: [usize; 3],
    /// The play to beat: its player and cards.
    prior: Option<(Seat, &'static str)>,
}

impl Position {
    fn view_and_choices(&self) -> (DealView, Vec<Action>) {
        let hand: CardSet = self.hand.parse().unwrap();
        let mut sizes = self.sizes;
        sizes[self.me] = hand.len();
        let trick = self.prior.map(|(seat, cards)| {
            let cards: CardSet = cards.parse().unwrap();
            let play = readings(&self.rules, cards.counts()).unwrap()[0];
            Trick { seat, cards, play }
        });
        let view = DealView {
            rules: self.rules,
            wild_rank: self.rules.wild_rank(),
            seat: Some(self.me),
            phase: Phase::Play,
            first: self.landlord,
            priority_draws: Vec::new(),
            auction: Auction::TakeOrPass { passes: 0 },
            landlord: Some(self.landlord),
            waiting_for: vec![self.me],
            hand: Some(hand),
            hand_sizes: sizes.to_vec(),
            bottom: None,
            seen: vec![true; 3],
            trick,
            actions: Vec::new(),
            paid: Vec::new(),
            pot: 0,
            ante: 0,
            multiplier: 1,
            auction_value: 1,
            allowance: None,
            bombs: 0,
            result: None,
            last_moves: vec![None; 3],
            hands_at_end: None,
            score_lines: Vec::new(),
            fairness: None,
        };
        let prior = trick.map(|t| t.play);
        let mut choices: Vec<Action> = legal_plays_vec(&self.rules, hand.counts(), prior.as_ref())
            .into_iter()
            .map(|play| Action::Play { seat: self.me, cards: hand.pick(play.cards).unwrap(), play })
            .collect();
        if prior.is_some() {
            choices.push(Action::Pass { seat: self.me });
        }
        (view, choices)
    }

    /// `seat` playing `cards` (read as their first reading), for the actions before the position.
    fn play(&self, seat: Seat, cards: &str) -> Action {
        let cards: CardSet = cards.parse().unwrap();
        Action::Play { seat, cards, play: readings(&self.rules, cards.counts()).unwrap()[0] }
    }

    /// What each of `kinds` chooses: the play, or `None` for a pass.
    fn choice(&self, kind: BotKind) -> Option<Play> {
        let (view, choices) = self.view_and_choices();
        let index = Bot::new(kind, 7).decide(&view, &choices);
        match &choices[index] {
            Action::Play { play, .. } => Some(*play),
            _ => None,
        }
    }
}

const STRONG: [BotKind; 2] = [BotKind::Normal, BotKind::Hard];

fn house() -> Rules {
    Rules::house(false)
}

#[test]
fn count_the_twos_and_jokers_do_not_lead_control_cards_early() {
    let p = Position {
        rules: Rules::no_shuffle(false),
        me: 0,
        landlord: 0,
        hand: "3S 4H 5D 6C 7S 9H 9D JS JH QC KS 2S 2H BJ RJ 8C TD AS AH TH",
        sizes: [20, 17, 17],
        prior: None,
    };
    for kind in STRONG {
        let play = p.choice(kind).unwrap();
        assert!(play.main.index() < 12, "{kind} led {play} early");
    }
}

#[test]
fn lead_your_longest_combo_early() {
    let p = Position {
        rules: Rules::no_shuffle(false),
        me: 0,
        landlord: 0,
        hand: "3S 4H 5D 6C 7S 8H 9D TS KH KC 2S 2H AS AH QS JC JD",
        sizes: [17, 17, 17],
        prior: None,
    };
    for kind in STRONG {
        let play = p.choice(kind).unwrap();
        assert_eq!(play.shape.kind, Kind::Straight, "{kind} led {play}");
        assert!(play.len() >= 8, "{kind} led only {play}");
    }
}

#[test]
fn tenants_pass_under_their_partner() {
    // Seat 1 (a farmer) follows partner seat 2's single 8; the landlord (seat 0) has many cards.
    let p = Position {
        rules: Rules::no_shuffle(false),
        me: 1,
        landlord: 0,
        hand: "3S 4H 5D 9C TS JH QD KS KH 2C 6S 6H 7D",
        sizes: [15, 13, 10],
        prior: Some((2, "8S")),
    };
    for kind in STRONG {
        assert_eq!(p.choice(kind), None, "{kind} beat its partner");
    }
}

#[test]
fn tenants_beat_their_partner_when_about_to_go_out() {
    let p = Position {
        rules: Rules::no_shuffle(false),
        me: 1,
        landlord: 0,
        hand: "9C",
        sizes: [15, 1, 10],
        prior: Some((2, "8S")),
    };
    for kind in STRONG {
        assert!(p.choice(kind).is_some(), "{kind} did not go out");
    }
}

#[test]
fn save_bombs_when_nobody_is_close_to_out() {
    let p = Position {
        rules: Rules::no_shuffle(false),
        me: 1,
        landlord: 0,
        hand: "3S 3H 3D 3C 4H 5D 6C 8S 8H TD JC QS KD",
        sizes: [16, 13, 15],
        prior: Some((0, "AS")),
    };
    for kind in STRONG {
        let choice = p.choice(kind);
        assert!(choice.is_none_or(|play| !play.shape.is_bomb_or_rocket()), "{kind} bombed early: {choice:?}");
    }
}

/// A landlord whose farmers play as the simple player may break up a bomb, but only for clearly more
/// wins (search.rs, `LANDLORD_BREAK_COST`): here every line wins, and four 5s with two singles would
/// shed the most.
#[test]
fn a_landlord_breaks_a_bomb_only_for_more_wins() {
    let p = Position {
        rules: Rules::no_shuffle(false),
        me: 0,
        landlord: 0,
        hand: "5S 5H 5D 5C 3S 4H 2S 2H BJ",
        sizes: [0, 5, 6],
        prior: None,
    };
    let (mut view, choices) = p.view_and_choices();
    // A trick the farmers played as the simple player would: each followed with the next single up,
    // then passed the landlord's red joker. Four decisions that fit, too few to play for the score.
    view.actions = vec![
        p.play(0, "6S"),
        p.play(1, "7S"),
        p.play(2, "8S"),
        p.play(0, "RJ"),
        Action::Pass { seat: 1 },
        Action::Pass { seat: 2 },
    ];
    let index = Bot::new(BotKind::Hard, 7).decide(&view, &choices);
    let Action::Play { play, .. } = &choices[index] else { panic!("a landlord on lead must play") };
    let broken = play.cards.get(Rank::FIVE.index()) > 0 && !play.shape.is_bomb_or_rocket();
    assert!(!broken, "hard broke up four 5s: {play}");
}

/// At No Shuffle every bomb doubles the score: `hard` keeps a four whole rather than shed it with two
/// kickers, and the rocket rather than lead a joker, while it plays for wins (search.rs, `breaks_a_bomb`).
#[test]
fn hard_keeps_its_bombs_whole_at_no_shuffle() {
    for hand in ["5S 5H 5D 5C 3S 4H 8C 9D TS", "BJ RJ 3S 4H 8C 9D TS JH"] {
        let p = Position { rules: Rules::no_shuffle(false), me: 1, landlord: 0, hand, sizes: [14, 0, 12], prior: None };
        let play = p.choice(BotKind::Hard).unwrap();
        let cards: CardSet = hand.parse().unwrap();
        let bombs: Vec<Play> = legal_plays_vec(&p.rules, cards.counts(), None)
            .into_iter()
            .filter(|p| p.shape.is_bomb_or_rocket())
            .collect();
        let shares = |b: &Play| b.cards.slots().any(|(slot, _)| play.cards.get(slot) > 0);
        let broken = bombs.iter().any(shares) && !play.shape.is_bomb_or_rocket();
        assert!(!broken, "hard broke up a bomb: {play} from {hand}");
    }
}

/// Against a landlord seen playing at random the table sense that holds a bomb back does not apply: a
/// bomb doubles the score and such a landlord cannot punish it (search.rs, `ERRATIC`).
#[test]
fn hard_bombs_a_landlord_who_plays_at_random() {
    let p = Position {
        rules: Rules::no_shuffle(false),
        me: 1,
        landlord: 0,
        hand: "7S 7H 7D 7C 8D 9D KD KH",
        sizes: [19, 8, 17],
        prior: Some((0, "2S")),
    };
    let (mut view, choices) = p.view_and_choices();
    // A single 2 led with 19 cards to go: no player who plans leads its control so.
    view.actions = vec![p.play(0, "2S")];
    let index = Bot::new(BotKind::Hard, 7).decide(&view, &choices);
    let Action::Play { play, .. } = &choices[index] else { panic!("hard passed the landlord's 2") };
    assert!(play.shape.is_bomb_or_rocket(), "hard played {play}");
}

#[test]
fn bomb_when_an_opponent_is_one_or_two_cards_from_out() {
    let p = Position {
        rules: Rules::no_shuffle(false),
        me: 1,
        landlord: 0,
        hand: "3S 3H 3D 3C 4H 5D 6C 8S 8H TD JC QS KD",
        sizes: [2, 13, 15],
        prior: Some((0, "AS")),
    };
    for kind in STRONG {
        let play = p.choice(kind).expect("must not let the landlord keep the lead");
        assert!(play.shape.is_bomb_or_rocket(), "{kind} played {play}");
    }
}

#[test]
fn split_the_twos_when_fighting_for_the_lead() {
    // The landlord leads a single ace with three cards left; a pair of 2s is worth more apart.
    let p = Position {
        rules: Rules::no_shuffle(false),
        me: 1,
        landlord: 0,
        hand: "2S 2H 4D 5C 7S 8H 9D JC",
        sizes: [3, 8, 12],
        prior: Some((0, "AS")),
    };
    for kind in STRONG {
        let play = p.choice(kind).unwrap_or_else(|| panic!("{kind} did not fight for the lead"));
        assert_eq!((play.shape.kind, play.main.index()), (Kind::Single, 12), "{kind} played {play}");
    }
}

#[test]
fn hang_the_lowest_junk_on_a_triple_never_the_twos() {
    let p = Position {
        rules: Rules::no_shuffle(false),
        me: 0,
        landlord: 0,
        hand: "7S 7H 7D 3C 2S 2H",
        sizes: [6, 17, 17],
        prior: None,
    };
    let play = p.choice(BotKind::Normal).unwrap();
    assert_eq!(play.cards, "3777".parse::<Counts>().unwrap(), "normal led {play}");
    // The searching bot may lead the 2s first for control, but never hangs a 2 on the triple.
    for kind in STRONG {
        let play = p.choice(kind).unwrap();
        if play.shape.kind == Kind::Triples {
            assert_eq!(play.cards, "3777".parse::<Counts>().unwrap(), "{kind} led {play}");
        }
    }
}

#[test]
fn read_the_extra_answer_a_triple_and_pair_with_a_triple_and_pair() {
    let p = Position {
        rules: Rules::no_shuffle(false),
        me: 1,
        landlord: 0,
        hand: "8S 8H 8D 3C 3S",
        sizes: [4, 5, 12],
        prior: Some((0, "5S 5H 5D 9S 9H")),
    };
    for kind in STRONG {
        let play = p.choice(kind).unwrap_or_else(|| panic!("{kind} did not answer the triple + pair"));
        assert_eq!(play.cards, "33888".parse::<Counts>().unwrap(), "{kind} played {play}");
    }
}

#[test]
fn never_strand_the_wild() {
    // Playing the 5 alone would leave only the Wild, which can never be led.
    let p =
        Position { rules: Rules::house(true), me: 0, landlord: 0, hand: "5S W 9H 9D", sizes: [4, 17, 17], prior: None };
    for kind in STRONG {
        let (view, choices) = p.view_and_choices();
        let index = Bot::new(kind, 3).decide(&view, &choices);
        let Action::Play { cards, .. } = &choices[index] else { panic!("a lead") };
        let rest = view.hand.unwrap().minus(*cards);
        assert!(rest != "W".parse().unwrap(), "{kind} stranded the Wild");
    }
}

#[test]
fn house_rules_bot_never_bombs_a_partner() {
    let p = Position {
        rules: house(),
        me: 2,
        landlord: 0,
        hand: "9S 9H 9D 9C 3H 4H",
        sizes: [12, 4, 6],
        prior: Some((1, "KS")),
    };
    for kind in STRONG {
        assert_eq!(p.choice(kind), None, "{kind} bombed its partner");
    }
}

#[test]
fn bomber_plays_every_bomb_at_its_first_chance() {
    let p = Position {
        rules: Rules::no_shuffle(false),
        me: 1,
        landlord: 0,
        hand: "3S 3H 3D 3C 4H 5D 6C 8S 8H TD JC QS KD",
        sizes: [16, 13, 15],
        prior: Some((0, "AS")),
    };
    let play = p.choice(BotKind::Bomber).unwrap();
    assert_eq!(play.shape.kind, Kind::Bomb);
}

/// Playing for the score (House: a bomb that goes out collects nothing): with a sure win either way
/// (farmers with two and three cards hold no bomb), bomb first and go out with the Red Joker, rather
/// than take the trick with the Joker and go out with the bomb.
#[test]
fn hard_bombs_while_the_bomb_still_pays_at_house() {
    let p = Position {
        rules: house(),
        me: 0,
        landlord: 0,
        hand: "3S 3H 3D 3C RJ",
        sizes: [5, 2, 3],
        prior: Some((2, "5S")),
    };
    let play = p.choice(BotKind::Hard).unwrap();
    assert_eq!(play.shape.kind, Kind::Bomb, "hard played {play}");
}
