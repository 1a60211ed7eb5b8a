//! The engine's readings and hints in the page: `ddz_engine::hints` compiled to WebAssembly
//! (`wasm32-unknown-unknown`), so that the browser client answers a tap without a round trip to the
//! server, from the very code the server's `POST /api/readings` and `POST /api/hints` run.
//!
//! No bindings generator: plain exports, with JSON across linear memory. The page asks [`alloc`] for
//! room, writes a position's JSON there and calls [`readings`] or [`hints`]; each frees the input and
//! answers a packed `u64` (pointer in the high 32 bits, length in the low) of a UTF-8 JSON body that
//! the page reads and hands back to [`dealloc`]. The body is exactly what the endpoint answers with
//! (`ReadingsAnswer`, `Hints`), or `{"message": ...}` for a malformed position (the endpoint's 400).
//! `web/src/lib/engine.ts` is the other side.
//!
//! [`mod@puzzle`] is the exact solver on a puzzle's position, for the puzzle page (online and offline).
//!
//! [`mod@offline`] is Play vs 2 Bots when the server cannot be reached: the deal state machine and the
//! `beginner`, `easy` and `normal` bots over a table the page keeps ([`offline::OfflineTable`]).

pub mod offline;
pub mod puzzle;

use ddz_engine::hints::{Position, PositionError, hints_answer, readings_answer};

/// Room for `len` bytes, for the page to write a position into.
#[unsafe(no_mangle)]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len);
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Frees what [`alloc`] gave or an answer's bytes.
///
/// # Safety
/// `ptr` and `len` are exactly an allocation of [`alloc`] or an answer, not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn dealloc(ptr: *mut u8, len: usize) {
    // SAFETY: the caller passes back an allocation of `len` bytes made by this module.
    drop(unsafe { Vec::from_raw_parts(ptr, 0, len) });
}

/// `POST /api/readings` in the page: the readings of the position's selected `cards`.
///
/// # Safety
/// `ptr` and `len` are an allocation of [`alloc`] holding the position's JSON; it is freed here.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn readings(ptr: *mut u8, len: usize) -> u64 {
    // SAFETY: as the caller promises.
    let input = unsafe { take(ptr, len) };
    answer(&input, |position| readings_answer(position).map(|a| serde_json::to_vec(&a)))
}

/// `POST /api/hints` in the page: every legal play from the position's hand.
///
/// # Safety
/// `ptr` and `len` are an allocation of [`alloc`] holding the position's JSON; it is freed here.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hints(ptr: *mut u8, len: usize) -> u64 {
    // SAFETY: as the caller promises.
    let input = unsafe { take(ptr, len) };
    answer(&input, |position| hints_answer(position).map(|a| serde_json::to_vec(&a)))
}

/// The page's offline table ([`offline::OfflineTable`]): what the table shows and the next bot's move
/// ([`offline::OfflineState`]), or `{"message": ...}` for an action the rules refuse.
///
/// # Safety
/// `ptr` and `len` are an allocation of [`alloc`] holding the table's JSON; it is freed here.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn offline(ptr: *mut u8, len: usize) -> u64 {
    // SAFETY: as the caller promises.
    let input = unsafe { take(ptr, len) };
    let body = match serde_json::from_slice::<offline::OfflineTable>(&input) {
        Ok(table) => match offline::offline_state(&table) {
            Ok(state) => serde_json::to_vec(&state).expect("states serialise"),
            Err(offline::Refused(message)) => refusal(message),
        },
        Err(e) => refusal(format!("bad table: {e}")),
    };
    leak(body)
}

/// A puzzle's position in the page ([`puzzle::PuzzleAsk`]): the legal moves, those that win, the defence and a
/// line of best play, after the move if one was made ([`puzzle::PuzzleAnswer`]), or `{"message": ...}`.
///
/// # Safety
/// `ptr` and `len` are an allocation of [`alloc`] holding the question's JSON; it is freed here.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn puzzle(ptr: *mut u8, len: usize) -> u64 {
    // SAFETY: as the caller promises.
    let input = unsafe { take(ptr, len) };
    let body = match serde_json::from_slice::<puzzle::PuzzleAsk>(&input) {
        Ok(ask) => match puzzle::answer(&ask) {
            Ok(answer) => serde_json::to_vec(&answer).expect("answers serialise"),
            Err(message) => refusal(message),
        },
        Err(e) => refusal(format!("bad question: {e}")),
    };
    leak(body)
}

/// The input's bytes, owned (and freed when dropped).
unsafe fn take(ptr: *mut u8, len: usize) -> Vec<u8> {
    // SAFETY: `alloc` made it with capacity `len`, and the page wrote all `len` bytes.
    unsafe { Vec::from_raw_parts(ptr, len, len) }
}

/// The JSON answer for a position's JSON, leaked for the page to read and free.
fn answer(input: &[u8], ask: impl FnOnce(&Position) -> Result<serde_json::Result<Vec<u8>>, PositionError>) -> u64 {
    let body = match serde_json::from_slice::<Position>(input) {
        Ok(position) => match ask(&position) {
            Ok(json) => json.expect("answers serialise"),
            Err(malformed) => refusal(malformed.to_string()),
        },
        Err(e) => refusal(format!("bad position: {e}")),
    };
    leak(body)
}

/// An answer's bytes, left for the page to read and free, as a packed pointer and length.
fn leak(body: Vec<u8>) -> u64 {
    let mut body = std::mem::ManuallyDrop::new(body.into_boxed_slice());
    let (ptr, len) = (body.as_mut_ptr() as u64, body.len() as u64);
    (ptr << 32) | len
}

fn refusal(message: String) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({ "message": message })).expect("a message serialises")
}
