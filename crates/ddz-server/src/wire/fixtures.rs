//! The table in each phase the layout test looks at (`web/e2e/table-layout.mjs`), written as the server
//! sends it: one `state` event per phase, from real rooms (seated players and bots, real deals, real
//! actions) and [`crate::wire::protocol::RoomView::of`], so that the page measured is the page players
//! see. The test `the_tables_fixtures_are_the_rooms_the_server_sends` keeps `web/e2e/fixtures/` equal to
//! them (`DDZ_BLESS=1` rewrites it).

#[cfg(test)]
mod tests {
    use ddz_bot::BotKind;
    use ddz_engine::{Action, Deal, DealSetup, Phase, Rules, Seed, Start};

    use crate::domain::fairness::Verdict;
    use crate::domain::rating::bot_skill;
    use crate::domain::room::{Entry, Mode, Room, Stamped};
    use crate::wire::protocol::{Deadlines, Event, RoomView};

    /// When the fixtures' deals happen (the client's clocks read the deadlines the test sets afresh).
    const AT: u64 = 1_800_000_000_000;

    fn commit(room: &mut Room, entry: Entry) {
        room.check(&entry).unwrap_or_else(|e| panic!("{entry:?}: {e}"));
        let stamped = Stamped { n: room.last + 1, at: AT + room.last * 1000, entry };
        room.apply(&stamped);
    }

    fn act(room: &mut Room, action: Action) {
        commit(room, Entry::Act { action, timed_out: false, seq: None });
    }

    /// A room of `rules` with Ann (seat 0, the player), a person with a long name and a `hard` bot (or, at
    /// Two Player, the person alone beside Ann).
    fn room(code: &str, rules: Rules) -> Room {
        let mut room = Room::new(code.into(), rules, Mode::Public, "Ann".into());
        commit(&mut room, Entry::Sit { seat: 0, name: "Ann".into() });
        commit(&mut room, Entry::Sit { seat: 1, name: "Beatrice Long".into() });
        if rules.players == 3 {
            commit(&mut room, Entry::AddBot { seat: 2, level: BotKind::Hard });
        }
        room
    }

    fn deal(room: &Room) -> &Deal {
        room.deal.as_ref().expect("a deal")
    }

    /// The turn's seat's legal plays, longest first.
    fn longest_play(room: &Room) -> Action {
        let mut plays: Vec<Action> =
            deal(room).choices().into_iter().filter(|a| matches!(a, Action::Play { .. })).collect();
        plays.sort_by_key(|a| match a {
            Action::Play { cards, .. } => std::cmp::Reverse(cards.len()),
            _ => std::cmp::Reverse(0),
        });
        plays.into_iter().next().expect("a play")
    }

    /// The first choice that passes when passing is allowed.
    fn pass_or_first(room: &Room) -> Action {
        let choices = deal(room).choices();
        choices.iter().find(|a| matches!(a, Action::Pass { .. })).cloned().unwrap_or_else(|| choices[0].clone())
    }

    /// The first of `seeds` whose House deal, seat 1 first, lets seat 1 (who takes) lead at least 15 cards.
    fn house_deal_with_a_long_lead() -> DealSetup {
        (0..2_000)
            .map(|seed| DealSetup::shuffled(Rules::house(true), Seed::from_u64(seed), Start::Seat(1)))
            .find(|setup| {
                let mut deal = Deal::new(setup.clone());
                deal.apply(&Action::Take { seat: 1 }).unwrap();
                for seat in 0..3 {
                    deal.apply(&Action::Seen { seat }).unwrap();
                }
                deal.choices().iter().any(|a| matches!(a, Action::Play { cards, .. } if cards.len() >= 15))
            })
            .expect("a deal with a long lead")
    }

    /// A House first deal whose priority draw took at least two rounds (a tie) and falls to a seat after the
    /// player's, so that the others pass before the player's turn.
    fn house_first_deal_drawn_twice() -> DealSetup {
        (0..5_000)
            .map(|seed| DealSetup::shuffled(Rules::house(true), Seed::from_u64(seed), Start::PriorityDraw))
            .find(|setup| {
                let deal = Deal::new(setup.clone());
                deal.priority_draws().len() >= 2 && deal.turn() == 1
            })
            .expect("a first deal drawn twice")
    }

    /// The turn's seat's longest play, if it has one.
    fn longest_if_any(room: &Room) -> Option<Action> {
        deal(room).choices().iter().any(|a| matches!(a, Action::Play { .. })).then(|| longest_play(room))
    }

    /// A House deal in one trick of which the landlord (seat 1) led its longest play, the bot passed, the
    /// player beat it with its longest answer and the landlord beat that: the player's turn, its own play
    /// still on the table beside the play to beat.
    fn house_trick_answered() -> Room {
        (0..5_000)
            .find_map(|seed| {
                let mut house = room("HOUSE1", Rules::house(true));
                let setup = DealSetup::shuffled(Rules::house(true), Seed::from_u64(seed), Start::Seat(1));
                commit(&mut house, Entry::Start { setup });
                act(&mut house, Action::Take { seat: 1 });
                for seat in 0..3 {
                    act(&mut house, Action::Seen { seat });
                }
                let lead = longest_play(&house);
                act(&mut house, lead);
                act(&mut house, Action::Pass { seat: 2 });
                let answer = longest_if_any(&house)?;
                act(&mut house, answer);
                let beaten = longest_if_any(&house)?;
                act(&mut house, beaten);
                act(&mut house, Action::Pass { seat: 2 });
                Some(house)
            })
            .expect("a trick the player answered")
    }

    /// The room as the player (`Some(0)`) or a spectator (`None`) sees it, every seat connected, with the
    /// ratings on the seats.
    fn view(room: &Room, seat: Option<usize>) -> RoomView {
        let deadlines = Deadlines {
            turn: room.deal_in_progress().then_some(AT + 40_000),
            deal: (room.deal_in_progress() && room.rules().table != ddz_engine::TableType::House)
                .then_some(AT + 300_000),
            nonces: None,
        };
        let mut view = RoomView::of(room, seat, &vec![true; room.seats.len()], u32::from(seat.is_none()), deadlines);
        // As the room's task marks its host's connections.
        view.hosting = seat.and_then(|s| room.key_of(s)).is_some_and(|key| room.is_host(key));
        let family = room.rules().table;
        for seat in &mut view.seats {
            seat.rating = match &seat.occupant {
                Some(crate::domain::room::Occupant::Bot { level, .. }) => Some(bot_skill(*level, family).points()),
                Some(_) => Some(1532 + 41 * seat.seat as i32),
                None => None,
            };
        }
        view
    }

    fn state(view: RoomView) -> String {
        let n = 1;
        serde_json::to_string_pretty(&Event::State { n, room: Box::new(view) }).expect("events serialise") + "\n"
    }

    /// Every phase's `state` event, by file name.
    fn fixtures() -> Vec<(&'static str, String)> {
        let mut fixtures = Vec::new();
        let setup = house_deal_with_a_long_lead();

        // The auction of a room's first deal, its longest explanation: the priority draw took rounds, the
        // others passed, and it is the player's turn to take the middle cards or pass.
        let mut house = room("HOUSE1", Rules::house(true));
        commit(&mut house, Entry::Start { setup: house_first_deal_drawn_twice() });
        while deal(&house).turn() != 0 {
            let seat = deal(&house).turn();
            act(&mut house, Action::Pass { seat });
        }
        fixtures.push(("auction", state(view(&house, Some(0)))));

        // The reveal: seat 1 took the middle cards; every seat acknowledges them.
        let mut house = room("HOUSE1", Rules::house(true));
        commit(&mut house, Entry::Start { setup });
        act(&mut house, Action::Take { seat: 1 });
        assert_eq!(deal(&house).phase(), Phase::Reveal);
        fixtures.push(("reveal", state(view(&house, Some(0)))));

        // A long trick: the landlord led its longest play, the bot passed, the player's turn.
        for seat in 0..3 {
            act(&mut house, Action::Seen { seat });
        }
        let lead = longest_play(&house);
        act(&mut house, lead);
        let answer = pass_or_first(&house);
        act(&mut house, answer);
        assert_eq!(deal(&house).turn(), 0);
        fixtures.push(("trick", state(view(&house, Some(0)))));
        // The spectator's view, with the widest nameplate: Beatrice's turns played by the bot while she is away.
        let mut watched = view(&house, None);
        watched.seats[1].auto_play = true;
        watched.seats[1].connected = false;
        fixtures.push(("spectator", state(watched)));
        fixtures.push(("answered", state(view(&house_trick_answered(), Some(0)))));

        // The result: the deal played out, each seat's first choice; the panel's rating line.
        while deal(&house).result().is_none() {
            let action = deal(&house).choices()[0].clone();
            act(&mut house, action);
        }
        let mut result = view(&house, Some(0));
        result.verdicts = vec![
            Some(Verdict { counted: true, reason: None, change: Some(12) }),
            Some(Verdict { counted: true, reason: None, change: Some(-7) }),
            None,
        ];
        fixtures.push(("result", state(result)));

        // Wild Rank: No Shuffle with the option, the player the landlord with all four cards of the wild rank
        // and a pair beside them, to lead.
        let setup = (0..5_000)
            .map(|seed| DealSetup::shuffled(Rules::no_shuffle(true), Seed::from_u64(seed), Start::Seat(0)))
            .find(|setup| {
                let deal = Deal::new(setup.clone());
                let Some(rank) = deal.rules().wild_rank() else { return false };
                let of = |r| deal.hand(0).iter().filter(|c| c.rank() == Some(r)).count();
                of(rank) == 4 && ddz_engine::Rank::ALL.iter().any(|&r| r != rank && of(r) == 2)
            })
            .expect("a deal with the four wild cards");
        let mut wild = room("WILDRK", Rules::no_shuffle(true));
        commit(&mut wild, Entry::Start { setup });
        act(&mut wild, Action::Bid { seat: 0, bid: 3 });
        assert_eq!(deal(&wild).turn(), 0);
        fixtures.push(("wildrank", state(view(&wild, Some(0)))));

        // No Shuffle's bidding: the player bids first, with every bid open (the prompt's widest row).
        let mut bids = room("BIDDING", Rules::no_shuffle(false));
        commit(
            &mut bids,
            Entry::Start { setup: DealSetup::shuffled(Rules::no_shuffle(false), Seed::from_u64(5), Start::Seat(0)) },
        );
        assert_eq!(deal(&bids).choices().len(), 4);
        fixtures.push(("bidding", state(view(&bids, Some(0)))));

        // Two Player: the player called and was not robbed, led, and the other seat answered.
        let mut two = room("TWOPLR", Rules::two_player(false));
        commit(
            &mut two,
            Entry::Start { setup: DealSetup::shuffled(Rules::two_player(false), Seed::from_u64(3), Start::Seat(0)) },
        );
        act(&mut two, Action::Call { seat: 0, call: true });
        act(&mut two, Action::Rob { seat: 1, rob: false });
        let lead = deal(&two).choices()[0].clone();
        act(&mut two, lead);
        while deal(&two).turn() != 0 {
            let answer = pass_or_first(&two);
            act(&mut two, answer);
        }
        fixtures.push(("twoplayer", state(view(&two, Some(0)))));

        // Two Player's result: called and robbed wherever a seat could, then played out, the other seat's cards
        // face up beside it.
        let mut two = room("TWOPLR", Rules::two_player(false));
        commit(
            &mut two,
            Entry::Start { setup: DealSetup::shuffled(Rules::two_player(false), Seed::from_u64(3), Start::Seat(0)) },
        );
        while deal(&two).result().is_none() {
            let choices = deal(&two).choices();
            let eager =
                choices.iter().find(|a| matches!(a, Action::Call { call: true, .. } | Action::Rob { rob: true, .. }));
            let action = eager.unwrap_or(&choices[0]).clone();
            act(&mut two, action);
        }
        fixtures.push(("twoplayer-result", state(view(&two, Some(0)))));
        fixtures
    }

    #[test]
    fn the_tables_fixtures_are_the_rooms_the_server_sends() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/e2e/fixtures");
        let bless = std::env::var_os("DDZ_BLESS").is_some();
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
        }
        for (name, json) in fixtures() {
            let path = dir.join(format!("table-{name}.json"));
            if bless {
                std::fs::write(&path, &json).unwrap();
            } else {
                let kept = std::fs::read_to_string(&path).unwrap_or_default();
                assert!(
                    kept == json,
                    "{} is out of date: run DDZ_BLESS=1 cargo test -p ddz-server --lib fixtures",
                    path.display()
                );
            }
        }
    }
}
