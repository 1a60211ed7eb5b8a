//! `ddz moves`: the engine's public test surface. Reads positions as JSON lines and writes, for each, the
//! legal plays with their readings as one JSON line. The format is documented in `docs/moves.md`.

use std::io::{BufRead, Write};

use ddz_engine::{Card, CardSet, Counts, PlayJson, Rank, Rules, legal_plays};
use serde::{Deserialize, Serialize};

/// One position to generate plays for.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    pub rules: Rules,
    /// The drawn wild rank (Wild Rank tables only).
    #[serde(default)]
    pub wild_rank: Option<Rank>,
    /// The hand as cards (`["3S", "TH", "BJ", "W"]`)...
    #[serde(default)]
    pub hand: Option<Vec<Card>>,
    /// ...or by rank only (`"33345BRW"`).
    #[serde(default)]
    pub hand_ranks: Option<String>,
    /// The play to beat; absent or null on a free lead.
    #[serde(default)]
    pub prior: Option<PlayJson>,
}

#[derive(Debug, Serialize)]
pub struct PlayOut {
    #[serde(flatten)]
    pub reading: PlayJson,
    /// Concrete cards from the hand (when the hand was given as cards).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cards: Option<CardSet>,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Answer {
    Plays { count: usize, plays: Vec<PlayOut> },
    Count { count: usize },
    Error { error: String },
}

/// Answers one JSON line.
pub fn answer(line: &str, counts_only: bool) -> Answer {
    match answer_position(line, counts_only) {
        Ok(answer) => answer,
        Err(error) => Answer::Error { error },
    }
}

fn answer_position(line: &str, counts_only: bool) -> Result<Answer, String> {
    let position: Position = serde_json::from_str(line).map_err(|e| format!("bad position: {e}"))?;
    let rules = position.rules.with_drawn_wild_rank(position.wild_rank).map_err(|e| e.to_string())?;
    let (hand, cards) = match (position.hand, position.hand_ranks) {
        (Some(cards), None) => {
            let set = CardSet::from_cards(cards).map_err(|e| e.to_string())?;
            (set.counts(), Some(set))
        }
        (None, Some(ranks)) => (ranks.parse::<Counts>().map_err(|e| e.to_string())?, None),
        _ => {
            return Err("give the hand as either \"hand\" (cards) or \"hand_ranks\" (shorthand)".into());
        }
    };
    let deck = rules.deck().counts();
    if !hand.fits_in(deck) {
        return Err(format!("the hand {hand} holds cards that are not in a {rules} deck"));
    }
    let prior =
        position.prior.map(|json| json.resolve(&rules)).transpose().map_err(|e| format!("the play to beat: {e}"))?;
    let mut plays = Vec::new();
    legal_plays(&rules, hand, prior.as_ref(), &mut plays);
    if counts_only {
        return Ok(Answer::Count { count: plays.len() });
    }
    let plays = plays
        .iter()
        .map(|play| PlayOut {
            reading: PlayJson::from(play),
            cards: cards.map(|set| set.pick(play.cards).expect("generated plays come from the hand")),
        })
        .collect::<Vec<_>>();
    Ok(Answer::Plays { count: plays.len(), plays })
}

/// Runs `ddz moves` over `input`, one answer line per input line; blank lines (spaces and tabs only)
/// get no answer, and a line that is not UTF-8 gets an error line.
pub fn run(mut input: impl BufRead, mut output: impl Write, counts_only: bool) -> std::io::Result<()> {
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return output.flush();
        }
        if line.trim_ascii().is_empty() {
            continue;
        }
        let answer = match std::str::from_utf8(&line) {
            Ok(text) => answer(text, counts_only),
            Err(_) => Answer::Error { error: "the line is not UTF-8".into() },
        };
        serde_json::to_writer(&mut output, &answer)?;
        output.write_all(b"\n")?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(line: &str) -> Answer {
        answer(line, true)
    }

    #[test]
    fn free_lead_counts_plays() {
        let a = count(r#"{"rules":"noshuffle","hand_ranks":"33345"}"#);
        assert!(matches!(a, Answer::Count { count: 7 }), "{a:?}");
    }

    #[test]
    fn following_uses_the_prior_reading() {
        // 333W read as a triple + the Wild: followed by a higher triple + single.
        let line = r#"{"rules":"house","hand":["4S","4H","4D","5S","2C"],
            "prior":{"type":"triples","main":"3","length":1,"attach":"singles","attach_count":1,"ranks":"333W"}}"#;
        let Answer::Plays { plays, .. } = answer(&line.replace('\n', ""), false) else { panic!() };
        let texts: Vec<&str> = plays.iter().map(|p| p.reading.text.as_str()).collect();
        assert_eq!(texts, ["triple of 4s + single", "triple of 4s + single"]);
        assert_eq!(plays[0].cards.unwrap().to_string(), "4S 4H 4D 5S");
    }

    #[test]
    fn bad_input_is_an_error_line() {
        for line in [
            "not json",
            r#"{"rules":"chess","hand_ranks":"3"}"#,
            r#"{"rules":"house","hand":["3S","3S"]}"#,
            r#"{"rules":"house","hand":["ZZ"]}"#,
            r#"{"rules":"twoplayer","hand_ranks":"3"}"#,
            r#"{"rules":"noshuffle-wildrank","hand_ranks":"3"}"#,
            r#"{"rules":"house","hand_ranks":"3","prior":{"type":"pair","main":"3","length":1,"attach":"none","ranks":"34"}}"#,
        ] {
            assert!(matches!(count(line), Answer::Error { .. }), "{line}");
        }
    }

    #[test]
    fn a_line_that_is_not_utf8_gets_an_error_and_the_next_line_is_answered() {
        let input = b"{\"rules\":\"house\",\"hand_ranks\":\"3\xff\"}\n\n  \n{\"rules\":\"noshuffle\",\"hand_ranks\":\"33345\"}\n";
        let mut output = Vec::new();
        run(&input[..], &mut output, true).unwrap();
        let text = String::from_utf8(output).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines, [r#"{"error":"the line is not UTF-8"}"#, r#"{"count":7}"#]);
    }

    use proptest::prelude::*;

    proptest! {
        /// Whatever arrives on a line, `ddz moves` answers with plays or an error line, never a panic.
        #[test]
        fn any_position_gets_an_answer_never_a_panic(
            table in "(house|house-nowild|noshuffle|noshuffle-wildrank|twoplayer|twoplayer-wildrank|x)",
            wild in proptest::option::of("[2-9TJQKAW]"),
            hand in "[2-9TJQKABRWX]{0,24}",
            kind in "(single|pair|triples|straight|pair_run|four_with_two|bomb|rocket)",
            main in "[2-9TJQKABR]",
            length in 0u8..20,
            attach in "(none|singles|pairs)",
            count in 0u8..9,
            ranks in "[2-9TJQKABRW]{0,22}",
            junk in ".{0,40}",
        ) {
            let wild = wild.map(|w| format!(r#","wild_rank":"{w}""#)).unwrap_or_default();
            let prior = format!(
                r#"{{"type":"{kind}","main":"{main}","length":{length},"attach":"{attach}","attach_count":{count},"ranks":"{ranks}"}}"#
            );
            let line = format!(r#"{{"rules":"{table}"{wild},"hand_ranks":"{hand}","prior":{prior}}}"#);
            let _ = answer(&line, false);
            let _ = answer(&junk, false);
        }
    }
}
