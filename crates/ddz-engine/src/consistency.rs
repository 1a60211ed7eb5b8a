//! Checks that a view and its choices could have come from a real deal, for anything that takes views
//! from outside: the bot protocol checks each request with it before any bot sees it
//! (`docs/bot-protocol.md`, "Errors"). A bot may then rely on what every view the engine produces
//! satisfies: a deciding seat with a hand of the stated size, every card in one place at most, the
//! landlord's bottom cards only in the landlord's hand, a trick to beat that someone else led, and
//! choices that are that seat's legal actions.

use crate::{Action, Auction, CardSet, DealView, Phase, Play, Rules, Seat, TableType, legal_plays_vec, readings};

/// Why a view or its choices cannot happen. `code` names the kind for programs; the message is for
/// people.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Inconsistent {
    #[error("the view has no deciding seat")]
    NoSeat,
    #[error("{what} {seat} is not a seat at a {players}-player table")]
    NoSuchSeat { what: &'static str, seat: Seat, players: usize },
    #[error("the view has no hand")]
    NoHand,
    #[error(transparent)]
    WildRank(#[from] crate::rules::WildRankError),
    #[error("hand_sizes has {got} entries for {players} players")]
    HandSizesLength { got: usize, players: usize },
    #[error("hand_sizes says seat {seat} holds {said} cards, but its hand has {held}")]
    HandSizeMismatch { seat: Seat, said: usize, held: usize },
    #[error("hand_sizes says seat {seat} holds {said} cards; no hand holds more than {most}")]
    HandTooBig { seat: Seat, said: usize, most: usize },
    #[error("{held} cards in hands and {played} played, where the deal has {dealt}")]
    CardCount { held: usize, played: usize, dealt: usize },
    #[error("the {what} holds cards that are not in a {rules} deck: {cards}")]
    NotInDeck { what: &'static str, cards: CardSet, rules: Rules },
    #[error("{0} were played twice")]
    PlayedTwice(CardSet),
    #[error("{0} are both played and in the hand")]
    PlayedAndHeld(CardSet),
    #[error("the bottom has {got} cards; a {rules} bottom has {want}")]
    BottomSize { got: usize, want: usize, rules: Rules },
    #[error("the bottom is shown in the {0} phase, with no landlord")]
    BottomWithoutLandlord(&'static str),
    #[error("there is a landlord but the bottom is not shown")]
    NoBottom,
    #[error("the landlord is not yet chosen in the {0} phase")]
    NoLandlord(&'static str),
    #[error("the bottom cards {0} are in a farmer's hand")]
    BottomInFarmersHand(CardSet),
    #[error("the landlord's bottom cards {0} are neither played nor in the landlord's hand")]
    BottomNotInHand(CardSet),
    #[error("the bottom cards {cards} were played by seat {seat}, a farmer")]
    BottomPlayedByFarmer { seat: Seat, cards: CardSet },
    #[error("{cards} cannot be read as {play}")]
    NotAReading { cards: CardSet, play: String },
    #[error("the deal is over")]
    Over,
    #[error("seat {0} is not one the deal waits for")]
    NotWaited(Seat),
    #[error("the trick to beat was led by the deciding seat {0}")]
    OwnTrick(Seat),
    #[error("the trick to beat is not the last play of the deal")]
    TrickNotLastPlay,
    #[error("it is seat {turn}'s turn, not seat {seat}'s")]
    NotYourTurn { seat: Seat, turn: Seat },
    #[error("there is a trick to beat in the {0} phase")]
    TrickOutOfPlay(&'static str),
    #[error("there are no choices")]
    NoChoices,
    #[error("choice {index} is for seat {seat:?}, not the deciding seat {me}")]
    ChoiceForAnotherSeat { index: usize, seat: Option<Seat>, me: Seat },
    #[error("choice {index} ({action}) is not possible in the {phase} phase at a {rules} table")]
    ChoiceWrongKind { index: usize, action: String, phase: &'static str, rules: Rules },
    #[error("choice {index} offers a pass on a lead")]
    PassOnLead { index: usize },
    #[error("choice {index} plays {cards}, which are not all in the hand")]
    ChoiceNotInHand { index: usize, cards: CardSet },
    #[error("choice {index} ({play}) is not a legal play now")]
    ChoiceNotLegal { index: usize, play: String },
}

impl Inconsistent {
    /// A stable name for the kind of inconsistency.
    pub fn code(&self) -> &'static str {
        match self {
            Inconsistent::NoSeat => "no_seat",
            Inconsistent::NoSuchSeat { .. } => "no_such_seat",
            Inconsistent::NoHand => "no_hand",
            Inconsistent::WildRank(_) => "wild_rank",
            Inconsistent::HandSizesLength { .. } => "hand_sizes_length",
            Inconsistent::HandSizeMismatch { .. } => "hand_size_mismatch",
            Inconsistent::HandTooBig { .. } => "hand_too_big",
            Inconsistent::CardCount { .. } => "card_count",
            Inconsistent::NotInDeck { .. } => "not_in_deck",
            Inconsistent::PlayedTwice(_) => "played_twice",
            Inconsistent::PlayedAndHeld(_) => "played_and_held",
            Inconsistent::BottomSize { .. } => "bottom_size",
            Inconsistent::BottomWithoutLandlord(_) => "bottom_without_landlord",
            Inconsistent::NoBottom => "no_bottom",
            Inconsistent::NoLandlord(_) => "no_landlord",
            Inconsistent::BottomInFarmersHand(_) => "bottom_in_farmers_hand",
            Inconsistent::BottomNotInHand(_) => "bottom_not_in_hand",
            Inconsistent::BottomPlayedByFarmer { .. } => "bottom_played_by_farmer",
            Inconsistent::NotAReading { .. } => "not_a_reading",
            Inconsistent::Over => "over",
            Inconsistent::NotWaited(_) => "not_waited",
            Inconsistent::OwnTrick(_) => "own_trick",
            Inconsistent::TrickNotLastPlay => "trick_not_last_play",
            Inconsistent::NotYourTurn { .. } => "not_your_turn",
            Inconsistent::TrickOutOfPlay(_) => "trick_out_of_play",
            Inconsistent::NoChoices => "no_choices",
            Inconsistent::ChoiceForAnotherSeat { .. } => "choice_for_another_seat",
            Inconsistent::ChoiceWrongKind { .. } => "choice_wrong_kind",
            Inconsistent::PassOnLead { .. } => "pass_on_lead",
            Inconsistent::ChoiceNotInHand { .. } => "choice_not_in_hand",
            Inconsistent::ChoiceNotLegal { .. } => "choice_not_legal",
        }
    }
}

fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Auction => "auction",
        Phase::Reveal => "reveal",
        Phase::Play => "play",
        Phase::Over => "over",
    }
}

/// Whether `view` and `choices` could be a real decision: the seat's view of a deal in progress and
/// its legal actions. The first inconsistency found, if any.
pub fn validate(view: &DealView, choices: &[Action]) -> Result<(), Inconsistent> {
    let rules = view.rules.with_drawn_wild_rank(view.wild_rank).map_err(Inconsistent::WildRank)?;
    let players = usize::from(rules.players);
    let seat_in_range = |what: &'static str, seat: Seat| {
        if seat < players { Ok(()) } else { Err(Inconsistent::NoSuchSeat { what, seat, players }) }
    };
    let me = view.seat.ok_or(Inconsistent::NoSeat)?;
    seat_in_range("the deciding seat", me)?;
    if let Some(landlord) = view.landlord {
        seat_in_range("the landlord", landlord)?;
    }
    seat_in_range("the first seat", view.first)?;
    for &seat in &view.waiting_for {
        seat_in_range("a seat waited for", seat)?;
    }
    if view.phase == Phase::Over || view.result.is_some() {
        return Err(Inconsistent::Over);
    }
    if !view.waiting_for.contains(&me) {
        return Err(Inconsistent::NotWaited(me));
    }

    let deck = rules.deck();
    let hand = view.hand.ok_or(Inconsistent::NoHand)?;
    if !hand.is_subset(deck) {
        return Err(Inconsistent::NotInDeck { what: "hand", cards: hand.minus(deck), rules });
    }
    check_sizes(view, &rules, hand)?;
    let played = check_history(view, &rules, hand)?;
    check_bottom(view, &rules, me, hand, played)?;
    check_trick(view, &rules, me)?;
    check_choices(view, &rules, me, hand, choices)
}

fn check_sizes(view: &DealView, rules: &Rules, hand: CardSet) -> Result<(), Inconsistent> {
    let players = usize::from(rules.players);
    let me = view.seat.expect("checked");
    if view.hand_sizes.len() != players {
        return Err(Inconsistent::HandSizesLength { got: view.hand_sizes.len(), players });
    }
    if view.hand_sizes[me] != hand.len() {
        return Err(Inconsistent::HandSizeMismatch { seat: me, said: view.hand_sizes[me], held: hand.len() });
    }
    let most = usize::from(rules.hand_size) + usize::from(rules.bottom_size);
    if let Some((seat, &said)) = view.hand_sizes.iter().enumerate().find(|&(_, &n)| n > most) {
        return Err(Inconsistent::HandTooBig { seat, said, most });
    }
    Ok(())
}

/// Checks every action of the history; the cards played.
fn check_history(view: &DealView, rules: &Rules, hand: CardSet) -> Result<CardSet, Inconsistent> {
    let players = usize::from(rules.players);
    let deck = rules.deck();
    let mut played = CardSet::EMPTY;
    for action in &view.actions {
        if let Some(seat) = action.seat()
            && seat >= players
        {
            return Err(Inconsistent::NoSuchSeat { what: "a seat in the history", seat, players });
        }
        if let Action::Play { cards, play, .. } = action {
            if !cards.is_subset(deck) {
                return Err(Inconsistent::NotInDeck { what: "history", cards: cards.minus(deck), rules: *rules });
            }
            if !cards.intersection(played).is_empty() {
                return Err(Inconsistent::PlayedTwice(cards.intersection(played)));
            }
            check_reading(rules, *cards, play)?;
            played = played.union(*cards);
        }
    }
    if !played.intersection(hand).is_empty() {
        return Err(Inconsistent::PlayedAndHeld(played.intersection(hand)));
    }
    let held: usize = view.hand_sizes.iter().sum();
    let bottom = if view.landlord.is_some() { usize::from(rules.bottom_size) } else { 0 };
    let dealt = players * usize::from(rules.hand_size) + bottom;
    if held + played.len() != dealt {
        return Err(Inconsistent::CardCount { held, played: played.len(), dealt });
    }
    Ok(played)
}

fn check_reading(rules: &Rules, cards: CardSet, play: &Play) -> Result<(), Inconsistent> {
    let fits = cards.counts() == play.cards && readings(rules, play.cards).is_ok_and(|all| all.contains(play));
    if fits { Ok(()) } else { Err(Inconsistent::NotAReading { cards, play: play.to_string() }) }
}

fn check_bottom(view: &DealView, rules: &Rules, me: Seat, hand: CardSet, played: CardSet) -> Result<(), Inconsistent> {
    let phase = phase_name(view.phase);
    let (landlord, bottom) = match (view.landlord, view.bottom) {
        (None, None) if view.phase == Phase::Auction => return Ok(()),
        (None, _) => return Err(Inconsistent::NoLandlord(phase)),
        (Some(_), None) => return Err(Inconsistent::NoBottom),
        (Some(_), Some(_)) if view.phase == Phase::Auction => return Err(Inconsistent::BottomWithoutLandlord(phase)),
        (Some(landlord), Some(bottom)) => (landlord, bottom),
    };
    let deck = rules.deck();
    if !bottom.is_subset(deck) {
        return Err(Inconsistent::NotInDeck { what: "bottom", cards: bottom.minus(deck), rules: *rules });
    }
    let want = usize::from(rules.bottom_size);
    if bottom.len() != want {
        return Err(Inconsistent::BottomSize { got: bottom.len(), want, rules: *rules });
    }
    for action in &view.actions {
        if let Action::Play { seat, cards, .. } = *action
            && seat != landlord
            && !cards.intersection(bottom).is_empty()
        {
            return Err(Inconsistent::BottomPlayedByFarmer { seat, cards: cards.intersection(bottom) });
        }
    }
    if me == landlord {
        let missing = bottom.minus(played).minus(hand);
        if !missing.is_empty() {
            return Err(Inconsistent::BottomNotInHand(missing));
        }
    } else if !bottom.intersection(hand).is_empty() {
        return Err(Inconsistent::BottomInFarmersHand(bottom.intersection(hand)));
    }
    Ok(())
}

fn check_trick(view: &DealView, rules: &Rules, me: Seat) -> Result<(), Inconsistent> {
    let Some(trick) = view.trick else {
        return Ok(());
    };
    if view.phase != Phase::Play {
        return Err(Inconsistent::TrickOutOfPlay(phase_name(view.phase)));
    }
    if trick.seat == me {
        return Err(Inconsistent::OwnTrick(me));
    }
    let players = usize::from(rules.players);
    let passes = view.actions.iter().rev().take_while(|a| matches!(a, Action::Pass { .. })).count();
    let last = view.actions.iter().rev().nth(passes);
    let is_last = matches!(last, Some(&Action::Play { seat, cards, play })
        if seat == trick.seat && cards == trick.cards && play == trick.play);
    if !is_last || passes + 1 >= players {
        return Err(Inconsistent::TrickNotLastPlay);
    }
    let turn = (trick.seat + 1 + passes) % players;
    if turn != me {
        return Err(Inconsistent::NotYourTurn { seat: me, turn });
    }
    Ok(())
}

fn check_choices(
    view: &DealView,
    rules: &Rules,
    me: Seat,
    hand: CardSet,
    choices: &[Action],
) -> Result<(), Inconsistent> {
    if choices.is_empty() {
        return Err(Inconsistent::NoChoices);
    }
    let mut legal: Option<Vec<Play>> = None;
    for (index, choice) in choices.iter().enumerate() {
        if choice.seat() != Some(me) {
            return Err(Inconsistent::ChoiceForAnotherSeat { index, seat: choice.seat(), me });
        }
        let fits = match (view.phase, choice) {
            (Phase::Auction, Action::Take { .. } | Action::Pass { .. }) => {
                matches!(view.auction, Auction::TakeOrPass { .. })
            }
            (Phase::Auction, Action::Bid { bid, .. }) => *bid <= 3 && matches!(view.auction, Auction::Bidding { .. }),
            (Phase::Auction, Action::Call { .. }) => {
                matches!(view.auction, Auction::CallAndRob { holder: None, .. })
            }
            (Phase::Auction, Action::Rob { .. }) => {
                matches!(view.auction, Auction::CallAndRob { holder: Some(_), .. })
            }
            (Phase::Reveal, Action::Seen { .. }) => rules.table == TableType::House,
            (Phase::Play, Action::Pass { .. }) => {
                if view.trick.is_none() {
                    return Err(Inconsistent::PassOnLead { index });
                }
                true
            }
            (Phase::Play, Action::Play { cards, play, .. }) => {
                if !cards.is_subset(hand) {
                    return Err(Inconsistent::ChoiceNotInHand { index, cards: cards.minus(hand) });
                }
                if cards.counts() != play.cards {
                    return Err(Inconsistent::NotAReading { cards: *cards, play: play.to_string() });
                }
                let legal = legal.get_or_insert_with(|| {
                    let mut plays = legal_plays_vec(rules, hand.counts(), view.trick.as_ref().map(|t| &t.play));
                    plays.sort_unstable();
                    plays
                });
                if legal.binary_search(play).is_err() {
                    return Err(Inconsistent::ChoiceNotLegal { index, play: play.to_string() });
                }
                true
            }
            _ => false,
        };
        if !fits {
            let action = serde_json::to_string(choice).unwrap_or_default();
            return Err(Inconsistent::ChoiceWrongKind { index, action, phase: phase_name(view.phase), rules: *rules });
        }
    }
    Ok(())
}
