//! What a bot knows at its turn, derived only from its seat's [`DealView`]: its hand, who is landlord,
//! every seat's card count, and the cards not yet seen (neither in its hand nor played).

use ddz_engine::{Action, CardSet, Counts, DealView, Play, Rank, Rules, Seat};

pub struct Table<'a> {
    pub view: &'a DealView,
    /// The rules with the wild rank drawn.
    pub rules: Rules,
    pub me: Seat,
    pub hand: CardSet,
    pub landlord: Option<Seat>,
    pub sizes: Vec<usize>,
    /// Cards played so far.
    pub played: CardSet,
    /// Cards in no known place: the deck less this hand and the played cards.
    pub unseen: CardSet,
    /// The landlord's bottom cards not yet played (known to be in the landlord's hand).
    pub known_in_landlord: CardSet,
}

impl<'a> Table<'a> {
    pub fn new(view: &'a DealView) -> Table<'a> {
        let me = view.seat.expect("a bot plays a seat");
        let hand = view.hand.unwrap_or_default();
        let played = view
            .actions
            .iter()
            .filter_map(|a| match a {
                Action::Play { cards, .. } => Some(*cards),
                _ => None,
            })
            .fold(CardSet::EMPTY, CardSet::union);
        let rules = view.play_rules();
        let known_in_landlord = match (view.landlord, view.bottom) {
            (Some(l), Some(bottom)) if l != me => bottom.minus(played),
            _ => CardSet::EMPTY,
        };
        Table {
            view,
            rules,
            me,
            hand,
            landlord: view.landlord,
            sizes: view.hand_sizes.clone(),
            played,
            unseen: rules.deck().minus(hand).minus(played),
            known_in_landlord,
        }
    }

    pub fn players(&self) -> usize {
        self.sizes.len()
    }

    pub fn counts(&self) -> Counts {
        self.hand.counts()
    }

    /// The play to beat and its player.
    pub fn prior(&self) -> Option<(Seat, Play)> {
        self.view.trick.map(|t| (t.seat, t.play))
    }
}

/// A choice's index and its play.
pub type Choice<'a> = (usize, &'a Play);

/// The plays among `choices`, each with its index: what a rule player chooses between (none in an
/// auction).
pub fn plays(choices: &[Action]) -> Vec<Choice<'_>> {
    choices
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Action::Play { play, .. } => Some((i, play)),
            _ => None,
        })
        .collect()
}

/// How many natural bombs (four of a rank, 3 to 2) `hand` holds.
pub fn fours(hand: Counts) -> u32 {
    (0..Rank::BLACK_JOKER.index()).filter(|&slot| hand.get(slot) == 4).count() as u32
}

/// The sum of the slots of a play's cards outside its main rank (a triple's or four's kickers): what a
/// rule player keeps small.
pub fn kickers(play: &Play) -> usize {
    let main = play.main.index();
    play.cards.slots().filter(|&(slot, _)| slot != main).map(|(slot, n)| slot * usize::from(n)).sum()
}

/// The index of a rule player's auction choice: the highest ask among `choices` up to `wanted` (a bid of
/// 1-3 asks for that much; a take, call or rob asks for 1; declining, 0), the first on a tie.
pub fn ask_for(choices: &[Action], wanted: u32) -> usize {
    let ask = |a: &Action| match *a {
        Action::Take { .. } | Action::Call { call: true, .. } | Action::Rob { rob: true, .. } => Some(1),
        Action::Bid { bid, .. } => Some(u32::from(bid)),
        Action::Pass { .. } | Action::Call { call: false, .. } | Action::Rob { rob: false, .. } => Some(0),
        _ => None,
    };
    let ranked = choices.iter().enumerate().filter_map(|(i, a)| ask(a).map(|k| (k, i)));
    let chosen = ranked.filter(|&(k, _)| k <= wanted).max_by_key(|&(k, i)| (k, std::cmp::Reverse(i)));
    chosen.map_or(0, |(_, i)| i)
}

/// What the hand-planning player looks at from a seat: a real table, or a seat in the search's
/// rollouts, where it stands in for an opponent who plans.
pub trait Outlook {
    fn rules(&self) -> &Rules;
    fn me(&self) -> Seat;
    fn hand(&self) -> Counts;
    fn landlord(&self) -> Option<Seat>;
    /// The play to beat and its player.
    fn prior(&self) -> Option<(Seat, Play)>;
    fn size(&self, seat: Seat) -> usize;
    fn players(&self) -> usize;
    /// Whether no card unseen from this seat outranks `slot` (so a single of it wins the trick).
    fn top_single(&self, slot: usize) -> bool;

    /// Whether `seat` is on my side.
    fn is_partner(&self, seat: Seat) -> bool {
        seat != self.me() && self.landlord().is_some_and(|l| l != seat && l != self.me())
    }

    fn is_opponent(&self, seat: Seat) -> bool {
        seat != self.me() && !self.is_partner(seat)
    }

    /// The fewest cards any opponent holds.
    fn opponent_low(&self) -> usize {
        (0..self.players()).filter(|&s| self.is_opponent(s)).map(|s| self.size(s)).min().unwrap_or(usize::MAX)
    }

    fn next(&self, seat: Seat) -> Seat {
        (seat + 1) % self.players()
    }
}

impl Outlook for Table<'_> {
    fn rules(&self) -> &Rules {
        &self.rules
    }
    fn me(&self) -> Seat {
        self.me
    }
    fn hand(&self) -> Counts {
        self.counts()
    }
    fn landlord(&self) -> Option<Seat> {
        self.landlord
    }
    fn prior(&self) -> Option<(Seat, Play)> {
        Table::prior(self)
    }
    fn size(&self, seat: Seat) -> usize {
        self.sizes[seat]
    }
    fn players(&self) -> usize {
        Table::players(self)
    }
    fn top_single(&self, slot: usize) -> bool {
        let unseen = self.unseen.counts();
        (slot + 1..15).all(|s| unseen.get(s) == 0)
    }
}
