//! The bot protocol (`docs/bot-protocol.md`): one JSON request per decision on a bot's standard input,
//! one JSON response on its standard output, like UCI for chess engines.
//!
//! Request: `{"id": 7, "view": {...the seat's DealView...}, "choices": [...legal actions...]}`.
//! Response: `{"id": 7, "choice": 3}`: the index of the chosen action in `choices`.

use std::io::{BufRead, BufReader, Write};
use std::panic::AssertUnwindSafe;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use ddz_engine::{Action, DealView};
use serde::{Deserialize, Serialize};

use crate::{Bot, BotError, Player};
use ddz_engine::consistency::validate;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// Numbers requests so a response can be matched to its request.
    pub id: u64,
    /// Everything the deciding seat may know.
    pub view: DealView,
    /// The legal choices, one of which must be chosen.
    pub choices: Vec<Action>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Response {
    pub id: u64,
    pub choice: usize,
}

/// Answers requests from `input` with `bot` until end of input: one answer line per line that is not
/// blank (blank lines, of spaces and tabs only, get no answer). A line that is not UTF-8, not a request,
/// or a request whose view or choices cannot happen ([`validate`]) gets an error line, and the next
/// line is read as usual.
pub fn serve(bot: &mut Bot, mut input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        if line.trim_ascii().is_empty() {
            continue;
        }
        serde_json::to_writer(&mut output, &answer(bot, &line))?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
}

/// The answer to one request line: `{"id": …, "choice": …}` or `{"id": …, "code": …, "error": …}` (the
/// `id` left out where the line has none to read).
pub fn answer(bot: &mut Bot, line: &[u8]) -> serde_json::Value {
    // Reading the request is guarded too: whatever fails, the line gets an answer and the process goes on.
    std::panic::catch_unwind(AssertUnwindSafe(|| answer_line(bot, line))).unwrap_or_else(|_| {
        serde_json::json!({"code": "internal_error", "error": "the request could not be read (a bug: please report it)"})
    })
}

fn answer_line(bot: &mut Bot, line: &[u8]) -> serde_json::Value {
    let error = |id: Option<u64>, code: &str, message: String| match id {
        Some(id) => serde_json::json!({"id": id, "code": code, "error": message}),
        None => serde_json::json!({"code": code, "error": message}),
    };
    let Ok(text) = std::str::from_utf8(line) else {
        return error(None, "not_utf8", "the line is not UTF-8".into());
    };
    let request = match serde_json::from_str::<Request>(text) {
        Ok(request) => request,
        Err(e) => {
            let id = serde_json::from_str::<serde_json::Value>(text).ok().and_then(|v| v.get("id")?.as_u64());
            return error(id, "bad_request", format!("bad request: {e}"));
        }
    };
    if let Err(e) = validate(&request.view, &request.choices) {
        return error(Some(request.id), e.code(), e.to_string());
    }
    // The last line of defence: a bot that fails on a view that passed the checks answers an error, and
    // the process goes on.
    let decided = std::panic::catch_unwind(AssertUnwindSafe(|| bot.decide(&request.view, &request.choices)));
    match decided {
        Ok(choice) if choice < request.choices.len() => {
            serde_json::to_value(Response { id: request.id, choice }).expect("responses serialise")
        }
        Ok(choice) => {
            error(Some(request.id), "bot_failed", format!("the bot chose {choice} of {}", request.choices.len()))
        }
        Err(_) => error(Some(request.id), "bot_failed", "the bot failed on this request".into()),
    }
}

/// An external bot: a command that speaks the protocol.
pub struct External {
    command: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl External {
    /// Starts `command` through the shell.
    pub fn spawn(command: &str) -> Result<External, BotError> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| BotError(format!("cannot start {command:?}: {e}")))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        Ok(External { command: command.to_string(), child, stdin, stdout, next_id: 0 })
    }
}

impl Player for External {
    fn choose(&mut self, view: &DealView, choices: &[Action]) -> Result<usize, BotError> {
        self.next_id += 1;
        let id = self.next_id;
        let request = Request { id, view: view.clone(), choices: choices.to_vec() };
        let fail = |what: String| BotError(format!("external bot {:?}: {what}", self.command));
        let line = serde_json::to_string(&request).expect("requests serialise");
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| fail(format!("cannot write: {e}")))?;
        let mut reply = String::new();
        match self.stdout.read_line(&mut reply) {
            Ok(0) => return Err(fail("closed its output".into())),
            Err(e) => return Err(fail(format!("cannot read: {e}"))),
            Ok(_) => {}
        }
        let response: Response = serde_json::from_str(reply.trim())
            .map_err(|e| fail(format!("malformed response {:?}: {e}", reply.trim())))?;
        if response.id != id {
            return Err(fail(format!("answered request {} when asked {id}", response.id)));
        }
        if response.choice >= choices.len() {
            return Err(fail(format!("chose {} of {} choices", response.choice, choices.len())));
        }
        Ok(response.choice)
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
