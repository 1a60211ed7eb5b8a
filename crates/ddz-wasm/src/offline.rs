//! Play vs 2 Bots without the server: the page keeps the table (its rules, the names, each deal's seed and
//! actions) and asks here for what the server's room would say of it. Everything is a fold over what the
//! page sends, as on the server (a deal is a seed and its actions; the room's ledger books each finished
//! deal), and the bots are the server's own (`ddz_bot::bot_action`), so an offline deal plays exactly as
//! one at a server with the same seed. Nothing here is rated or stored anywhere but in the page.

use ddz_bot::{BotKind, bot_action};
use ddz_engine::{Action, Deal, DealView, Ledger, Payment, Rules, Seat, Seed, TableRules};
use serde::{Deserialize, Serialize};

/// The table as the page keeps it.
#[derive(Clone, Debug, Deserialize)]
pub struct OfflineTable {
    /// The table type (each deal says its own option: the host may switch the Wild between deals).
    pub rules: TableRules,
    /// By seat: the player's name; a bot's seat left unnamed (empty) is named here, as the server names
    /// its bots ([`BotKind::seat_name`]).
    pub names: Vec<String>,
    /// By seat: the bot's level, or none for the player.
    pub bots: Vec<Option<BotKind>>,
    /// Every deal so far, the last one possibly still running.
    pub deals: Vec<OfflineDeal>,
    /// The seat whose view is wanted (the player's).
    pub seat: Seat,
}

/// One deal: the page draws the seed (32 random bytes) and appends each action.
#[derive(Clone, Debug, Deserialize)]
pub struct OfflineDeal {
    pub rules: TableRules,
    pub seed: Seed,
    pub actions: Vec<Action>,
}

/// What the table shows, as the server's room view would.
#[derive(Clone, Debug, Serialize)]
pub struct OfflineState {
    /// The last deal as the seat sees it; none before the first.
    pub deal: Option<DealView>,
    /// Finished deals.
    pub deals_played: u32,
    /// Each seat's dollars (House, from $100) or points (from 0).
    pub balances: Vec<i64>,
    /// Who pays whom to settle up, should the table close now.
    pub settlement: Vec<Payment>,
    /// The next bot's move, when a bot is awaited (the page plays it after a moment).
    pub bot: Option<Action>,
    /// Each seat's name: the player's, and the bots' as the server would name them.
    pub names: Vec<String>,
}

/// Each seat's name: the page's, and [`BotKind::seat_name`] for a bot's seat it left unnamed (the second
/// of a kind is `Bot Normal 2`).
fn seat_names(table: &OfflineTable) -> Vec<String> {
    let unnamed_bot =
        |seat: usize| table.names[seat].is_empty().then(|| table.bots.get(seat).copied().flatten()).flatten();
    (0..table.names.len())
        .map(|seat| match unnamed_bot(seat) {
            Some(kind) => kind.seat_name(1 + (0..seat).filter(|&s| unnamed_bot(s) == Some(kind)).count()),
            None => table.names[seat].clone(),
        })
        .collect()
}

/// Why the page's table cannot be read: an action the rules refuse (the page drops it), or a table
/// that is not one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused(pub String);

/// The state of the page's table: every deal replayed and booked in turn.
pub fn offline_state(table: &OfflineTable) -> Result<OfflineState, Refused> {
    let players = table.names.len();
    let rules = Rules::of(table.rules.table, table.rules.wild || table.rules.wild_rank);
    if players != rules.players as usize || table.bots.len() != players || table.seat >= players {
        return Err(Refused(format!("a {} table seats {} players", rules.name(), rules.players)));
    }
    let names = seat_names(table);
    // The ledger books money by name: one name at two seats would be one balance.
    if (1..players).any(|i| names[..i].contains(&names[i])) {
        return Err(Refused("each seat needs a name of its own".into()));
    }
    let mut ledger = Ledger::new(rules);
    for name in &names {
        ledger.join(name);
    }
    let mut last: Option<Deal> = None;
    for (number, dealt) in table.deals.iter().enumerate() {
        if let Some(previous) = &last {
            if previous.result().is_none() {
                return Err(Refused(format!("deal {number} is not over, so deal {} cannot start", number + 1)));
            }
            ledger.record(previous, &names);
        }
        if dealt.rules.table != table.rules.table {
            return Err(Refused(format!("deal {} is not at a {} table", number + 1, rules.name())));
        }
        ledger.rules = Rules::of(dealt.rules.table, dealt.rules.wild || dealt.rules.wild_rank);
        let deal = Deal::replay(ledger.next_setup(dealt.seed), &dealt.actions)
            .map_err(|(at, e)| Refused(format!("action {} of deal {}: {e}", at + 1, number + 1)))?;
        last = Some(deal);
    }
    let over = last.as_ref().is_some_and(|deal| deal.result().is_some());
    let mut deals_played = ledger.deals;
    let mut balances: Vec<i64> = names.iter().map(|n| ledger.balances[n]).collect();
    if let (true, Some(deal)) = (over, &last) {
        deals_played += 1;
        for (balance, delta) in balances.iter_mut().zip(&deal.result().expect("over").score) {
            *balance += delta;
        }
    }
    let start = ledger.starting_balance();
    let nets: Vec<(String, i64)> = names.iter().cloned().zip(balances.iter().map(|b| b - start)).collect();
    let bot = last.as_ref().and_then(|deal| {
        deal.waiting_for().into_iter().find_map(|seat| table.bots[seat].and_then(|kind| bot_action(deal, seat, kind)))
    });
    Ok(OfflineState {
        deal: last.as_ref().map(|deal| deal.view(Some(table.seat))),
        deals_played,
        balances,
        settlement: ddz_engine::settle(&nets),
        bot,
        names,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ddz_engine::{Phase, TableType};

    fn table(rules: TableRules) -> OfflineTable {
        let players = if rules.table == TableType::TwoPlayer { 2 } else { 3 };
        let names = ["Ann", "", ""][..players].iter().map(|s| s.to_string()).collect();
        let mut bots = vec![Some(BotKind::Normal); players];
        bots[0] = None;
        let deals = vec![OfflineDeal { rules, seed: Seed::from_u64(9), actions: vec![] }];
        OfflineTable { rules, names, bots, deals, seat: 0 }
    }

    /// Plays the deal to its end: the bots as they answer, the player by its first choice.
    fn play_out(table: &mut OfflineTable) -> OfflineState {
        loop {
            let state = offline_state(table).expect("a table");
            let deal = state.deal.as_ref().expect("a deal");
            if deal.phase == Phase::Over {
                return state;
            }
            let action = match state.bot {
                Some(action) => action,
                None => {
                    let replayed = Deal::replay(
                        Ledger::new(Rules::of(table.rules.table, table.rules.wild)).next_setup(Seed::from_u64(9)),
                        &table.deals[0].actions,
                    )
                    .expect("legal so far");
                    replayed.choices().into_iter().find(|a| a.seat() == Some(0)).expect("the player is awaited")
                }
            };
            table.deals.last_mut().expect("a deal").actions.push(action);
        }
    }

    #[test]
    fn an_offline_house_deal_plays_to_its_result_and_books_the_money() {
        let mut house = table(TableRules { table: TableType::House, wild: true, wild_rank: false });
        let state = play_out(&mut house);
        assert_eq!(state.deals_played, 1);
        let result = state.deal.expect("the deal").result.expect("over");
        let expected: Vec<i64> = result.score.iter().map(|delta| 100 + delta).collect();
        assert_eq!(state.balances, expected);
        assert_eq!(state.balances.iter().sum::<i64>(), 300);
        assert!(state.bot.is_none(), "nobody acts once the deal is over");
    }

    #[test]
    fn an_offline_two_player_deal_plays_to_its_result() {
        let mut two = table(TableRules { table: TableType::TwoPlayer, wild: false, wild_rank: false });
        let state = play_out(&mut two);
        assert_eq!(state.balances.iter().sum::<i64>(), 0);
        assert_eq!(state.deal.expect("the deal").hands_at_end.expect("shown").len(), 2);
    }

    #[test]
    fn the_bots_are_named_as_the_servers_bots_are() {
        let state =
            offline_state(&table(TableRules { table: TableType::House, wild: false, wild_rank: false })).unwrap();
        assert_eq!(state.names, ["Ann", "Bot Normal", "Bot Normal 2"]);
    }

    #[test]
    fn the_view_is_the_players_own() {
        let state = offline_state(&table(TableRules { table: TableType::House, wild: false, wild_rank: false }))
            .expect("a table");
        let deal = state.deal.expect("dealt");
        assert_eq!(deal.seat, Some(0));
        assert_eq!(deal.hand.expect("own hand").len(), 17);
        assert!(deal.bottom.is_none(), "the middle cards are hidden until taken");
    }

    #[test]
    fn an_illegal_action_is_refused_with_its_place() {
        let mut house = table(TableRules { table: TableType::House, wild: false, wild_rank: false });
        house.deals[0].actions.push(Action::Seen { seat: 0 });
        let Refused(why) = offline_state(&house).expect_err("refused");
        assert!(why.starts_with("action 1 of deal 1"), "{why}");
    }

    #[test]
    fn a_deal_cannot_start_before_the_last_is_over() {
        let mut house = table(TableRules { table: TableType::House, wild: false, wild_rank: false });
        house.deals.push(OfflineDeal { rules: house.rules, seed: Seed::from_u64(10), actions: vec![] });
        assert!(offline_state(&house).is_err());
    }

    #[test]
    fn a_second_deal_starts_from_the_first_deals_balances() {
        let mut house = table(TableRules { table: TableType::House, wild: false, wild_rank: false });
        let first = play_out(&mut house);
        // The host switched the Wild on for the second deal: it is dealt from 55 cards.
        let wild = TableRules { wild: true, ..house.rules };
        house.deals.push(OfflineDeal { rules: wild, seed: Seed::from_u64(10), actions: vec![] });
        let second = offline_state(&house).expect("a table");
        assert_eq!(second.deals_played, 1);
        assert_eq!(second.balances, first.balances);
        let deal = second.deal.expect("dealt");
        assert!(deal.result.is_none());
        assert_eq!(deal.rules, Rules::house(true));
    }
}
