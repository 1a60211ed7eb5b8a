//! Our re-implementation of RLCard's rule agent (`ddz arena --b rlcard-rule`) against the original:
//! the deals of `ddz arena --research --deals 12 --seed 3 --a normal --b exec:scripts/rlcard_bot.py` are
//! replayed with the original's recorded answers (tests/data/rlcard-rule-answers.txt), and at each of
//! its decisions ours must give the same answer, or, where the original drew at random, offer that
//! answer among its draws.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use ddz_bot::arena::play_game;
use ddz_bot::rule_agent::{self, Decision};
use ddz_bot::{Bot, BotError, BotKind, Player};
use ddz_engine::{Action, DealView, Rules};

/// The recorded answers of one game, shared by the agent's seats.
struct Recorded {
    answers: Rc<RefCell<VecDeque<(usize, bool)>>>,
    checked: Rc<RefCell<u32>>,
}

impl Player for Recorded {
    fn choose(&mut self, view: &DealView, choices: &[Action]) -> Result<usize, BotError> {
        let (answer, drew) = self.answers.borrow_mut().pop_front().expect("a recorded answer for each decision");
        let ours = rule_agent::decide(view, choices);
        match &ours {
            Decision::Choice(index) => {
                assert!(!drew && *index == answer, "{ours:?}, the original {answer} (drew: {drew}) in {view:?}")
            }
            Decision::AnyOf(indexes) => {
                assert!(drew && indexes.contains(&answer), "{ours:?}, the original {answer} (drew: {drew})")
            }
        }
        *self.checked.borrow_mut() += 1;
        Ok(answer)
    }
}

#[test]
fn the_rule_agent_answers_as_rlcards_own_on_recorded_deals() {
    let data = include_str!("data/rlcard-rule-answers.txt");
    let games: Vec<VecDeque<(usize, bool)>> = data
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            line.split_whitespace()
                .map(|answer| {
                    let drew = answer.ends_with('*');
                    (answer.trim_end_matches('*').parse().expect("an index"), drew)
                })
                .collect()
        })
        .collect();
    assert_eq!(games.len(), 24, "12 deals, each played twice");
    let checked = Rc::new(RefCell::new(0));
    let (mut deterministic, mut drawn) = (0, 0);
    for (game, answers) in games.into_iter().enumerate() {
        deterministic += answers.iter().filter(|(_, drew)| !drew).count();
        drawn += answers.iter().filter(|(_, drew)| *drew).count();
        let answers = Rc::new(RefCell::new(answers));
        let agent = || -> Box<dyn Player> { Box::new(Recorded { answers: answers.clone(), checked: checked.clone() }) };
        let normal = || -> Box<dyn Player> { Box::new(Bot::new(BotKind::Normal, 0)) };
        let seed = 3u64.wrapping_mul(1_000_003).wrapping_add(game as u64 / 2);
        let normal_is_landlord = game % 2 == 0;
        let (mut landlord, mut farmers) =
            if normal_is_landlord { (normal(), vec![agent(), agent()]) } else { (agent(), vec![normal(), normal()]) };
        play_game(Rules::no_shuffle(false), true, seed, landlord.as_mut(), &mut farmers).expect("the game plays out");
        assert!(answers.borrow().is_empty(), "game {game}: the original answered more decisions than were asked");
    }
    assert_eq!(*checked.borrow() as usize, deterministic + drawn);
    assert!(deterministic > 250 && drawn > 50, "{deterministic} decisions by rule, {drawn} drawn");
}
