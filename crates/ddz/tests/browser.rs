//! The browser client in real Chromium: starts `ddz serve` on a free port with a fresh database and
//! runs a script of `web/e2e/` (playwright-core driving `/usr/bin/chromium`) against it: `run.mjs` (the
//! table, rooms, languages), `challenges.mjs` (the challenge modes, boards and stats), `screens.mjs` (every
//! screen size: the hand, the buttons and the text fit; axe-core's contrast and naming checks) and
//! `replay.mjs` (a finished deal's replay viewer), `typed.mjs` (a deal played by typing, and the screen
//! reader's announcements), `ratings.mjs` (a rating on the seat that moves after a deal, the stats page's
//! chart, the ratings board), `names.mjs` (protected names: protecting, a stranger refused, recovering),
//! `quick.mjs` (quick match: the waiting page, bots filling the seats, strangers seated together, Cancel),
//! `offline.mjs` (the engine in the page, and a turn played through a network cut), `feel.mjs` (motion,
//! sounds and spoken calls, quick chat), `table-layout.mjs` (the table at every size and phase, in both
//! languages), `pwa.mjs` (the installed app: manifest, service worker, and a deal against the page's bots
//! after the server is stopped), `tournament.mjs` (a sit-and-go created, registered for, played at its table
//! and followed to its podium), `hall-layout.mjs` (the hall at every size, fresh and busy, in both languages),
//! `hall.mjs` (the hall's one-tap ways to play), `pages-layout.mjs` (the tournaments, an event's page, a
//! player's page and the boards at every size, fresh and busy, in both languages), `follow.mjs` (an event's
//! page pushed as it fills and starts; a deal played opened from the player's page into its replay) and
//! `puzzles.mjs` (the daily puzzle from the hall solved and rated, a wrong move refuted, a puzzle offline).
//!
//! Needs Node.js, `npm ci` in `web/`, and Chromium (`.ci/run` installs them); without them it fails.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

const DDZ: &str = env!("CARGO_BIN_EXE_ddz");

/// Kills the server when the test ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_web_client_plays_in_chromium() {
    run_browser_tests("run.mjs", &[]);
}

/// The challenge modes, with quicker bots so that three runs' first deals finish in seconds.
#[test]
fn the_challenge_modes_play_in_chromium() {
    run_browser_tests("challenges.mjs", &["--bot-delay-ms", "100", "--bot-delay-span-ms", "100"]);
}

/// The home page and a landlord's deal at five screen sizes, with quicker bots (slow enough that a
/// passed turn shows before it comes back).
#[test]
fn the_web_client_fits_every_screen() {
    run_browser_tests("screens.mjs", &["--bot-delay-ms", "400", "--bot-delay-span-ms", "200"]);
}

/// The table at thirteen sizes (phones sideways first, upright, a laptop, a desktop) in every phase, in English
/// and Chinese, from the server's own rooms played over a stubbed socket: nothing overlaps, is cut or scrolls,
/// every card of the hand takes a tap and is as large as the space allows, and axe finds nothing serious.
#[test]
fn the_table_fits_every_size_and_phase_in_chromium() {
    run_browser_tests("table-layout.mjs", &[]);
}

/// The hall at the thirteen sizes of the table, in English and Chinese, on a fresh server and on a busy one (its
/// state played in through stubs): nothing overlaps, is cut or scrolls on a phone held sideways, every tap
/// target is 44px at least, and axe finds nothing serious.
#[test]
fn the_hall_fits_every_size_in_chromium() {
    run_browser_tests("hall-layout.mjs", &[]);
}

/// The hall acted on by touch on a phone held sideways: a first visit reaches a dealt quick-match table with a
/// name and one tap (bots after the server's 10 s), one tap registers for the open sit-and-go, Sit at a public
/// table from its sheet; quick bots.
#[test]
fn the_hall_plays_in_one_tap_in_chromium() {
    run_browser_tests("hall.mjs", &["--bot-delay-ms", "100", "--bot-delay-span-ms", "100"]);
}

/// A finished deal's replay: stepping, the timeline, autoplay, the Verify button, both languages, a phone.
#[test]
fn a_finished_deal_replays_in_chromium() {
    run_browser_tests("replay.mjs", &["--bot-delay-ms", "100", "--bot-delay-span-ms", "100"]);
}

/// A deal played from the keyboard alone by typed plays, the refusals said in the field, the live region's
/// announcements, and the field on an upright phone; quick bots, as for the replay.
#[test]
fn a_deal_plays_by_typing_in_chromium() {
    run_browser_tests("typed.mjs", &["--bot-delay-ms", "100", "--bot-delay-span-ms", "100"]);
}

/// A rating on the seat that moves after a deal against bots, on the stats page and the ratings board;
/// quick bots, as for the replay.
#[test]
fn a_rating_moves_after_a_deal_in_chromium() {
    run_browser_tests("ratings.mjs", &["--bot-delay-ms", "100", "--bot-delay-span-ms", "100"]);
}

/// A name protected in one browser context, refused to a stranger in another, recovered there with its
/// code and played under (`docs/names.md`); quick bots, as for the replay.
#[test]
fn a_protected_name_is_refused_to_strangers_and_recovered_in_chromium() {
    run_browser_tests("names.mjs", &["--bot-delay-ms", "100", "--bot-delay-span-ms", "100"]);
}

/// Quick match from the home screen: a player alone seated with two bots after the server's 10 s wait (there
/// is no flag to shorten it), three players seated together, a reload, a lost ticket and Cancel; quick bots.
#[test]
fn quick_match_seats_players_in_chromium() {
    run_browser_tests("quick.mjs", &["--bot-delay-ms", "100", "--bot-delay-span-ms", "100"]);
}

/// The engine in the page: selections, Hint and Play with no request for readings or hints, Play enabled
/// within a frame, and a turn played through a network cut (the banner in both languages); quick bots.
#[test]
fn a_turn_plays_through_a_network_cut_in_chromium() {
    run_browser_tests("offline.mjs", &["--bot-delay-ms", "100", "--bot-delay-span-ms", "100"]);
}

/// The installed app: its manifest and service worker, then the server stopped (by the script) and a deal
/// played to its result against the bots in the page.
#[test]
fn the_installed_app_plays_a_deal_without_the_server_in_chromium() {
    run_browser_tests("pwa.mjs", &[]);
}

/// The table's feel: motion at five screen sizes and none under reduced motion, sounds and spoken calls per
/// event, the sound switch at the table, quick chat and its mute; bots slow enough that each of their actions
/// comes in a state of its own (so each is heard and seen).
#[test]
fn the_table_moves_sounds_and_chats_in_chromium() {
    run_browser_tests("feel.mjs", &["--bot-delay-ms", "300", "--bot-delay-span-ms", "100"]);
}

/// A tournament from the Tournaments page: a 9-player House sit-and-go that bots fill after 10 s, with
/// one-deal rounds, played at the player's table and followed to its podium. Short pauses between rounds,
/// and the bot plays for a player away from their table after 15 s; quick bots.
#[test]
fn a_tournament_plays_from_its_page_to_its_podium_in_chromium() {
    run_browser_tests(
        "tournament.mjs",
        &[
            "--tournament-pause-ms",
            "500",
            "--tournament-away-ms",
            "15000",
            "--bot-delay-ms",
            "100",
            "--bot-delay-span-ms",
            "100",
        ],
    );
}

/// The tournaments, an event's page (before its start and mid chip rounds), a player's page and the boards at
/// the thirteen sizes of the table, in English and Chinese, on a fresh server and on a busy one (its answers
/// played in through stubs): nothing overlaps, is cut or scrolls sideways, every tap target is 44px at least,
/// and axe finds nothing serious.
#[test]
fn the_tournament_player_and_board_pages_fit_every_size_in_chromium() {
    run_browser_tests("pages-layout.mjs", &[]);
}

/// An event's page follows a sit-and-go as it fills, starts and plays its first round, pushed over its socket
/// after one GET; a deal played against bots opens from the player's page into its replay. The bot plays for an
/// entrant away a second; quick bots.
#[test]
fn pages_follow_what_happens_in_chromium() {
    run_browser_tests(
        "follow.mjs",
        &[
            "--tournament-pause-ms",
            "500",
            "--tournament-away-ms",
            "1000",
            "--bot-delay-ms",
            "100",
            "--bot-delay-span-ms",
            "100",
        ],
    );
}

/// Puzzles: the daily one from the hall solved move by move and rated, a wrong first move refuted with the
/// solution shown, and a puzzle kept in the app played with the server out of reach.
#[test]
fn puzzles_are_solved_refuted_and_played_offline_in_chromium() {
    run_browser_tests("puzzles.mjs", &[]);
}

/// Serves a fresh database with `server_args` and runs `web/e2e/{script}` against it.
fn run_browser_tests(script: &str, server_args: &[&str]) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let db = std::env::temp_dir().join(format!("ddz-browser-{script}-{}.db", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let mut child = Command::new(DDZ)
        .args(["serve", "--addr", "127.0.0.1:0", "--database", &format!("sqlite://{}", db.display())])
        .args(server_args)
        // The scripts drive many pages from one address far faster than people do: room for them under
        // the per-address limits.
        .args(["--api-rate", "200", "--api-burst", "600", "--ws-rate", "50", "--ws-burst", "200"])
        // Each script plays a deal or two and reads its player on the boards: listed from the first rated deal.
        .args(["--board-min-deals", "1", "--board-min-opponents", "1"])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("ddz serve starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let server = Server(child);
    let mut first = String::new();
    BufReader::new(stdout).read_line(&mut first).expect("the server prints its address");
    let url = first.trim().strip_prefix("Dou Dizhu on ").unwrap_or_else(|| panic!("unexpected first line: {first:?}"));

    let out = Command::new("node")
        .arg(format!("web/e2e/{script}"))
        .current_dir(&root)
        .env("DDZ_URL", url)
        // `pwa.mjs` stops the server itself, to play on without it.
        .env("DDZ_SERVER_PID", server.0.id().to_string())
        // Screenshots of a test run go under target/, so that tests leave docs/screenshots as committed.
        .env("DDZ_SCREENSHOTS", root.join("target/e2e-screenshots"))
        .output()
        .expect("node runs (install Node.js 20+ and run npm ci in web/)");
    drop(server);
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the browser tests in {script} failed ({}):\n{text}", out.status);
    // The measurements, for whoever runs with --nocapture.
    for line in text.lines().filter(|l| {
        ["FIRST_RENDER_MS", "FIRST_VISIT_TO_DEALT_MS", "deal done", "to Play enabled"].iter().any(|m| l.contains(m))
    }) {
        println!("{}", line.trim());
    }
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}
