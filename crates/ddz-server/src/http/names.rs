//! Protected names (`docs/names.md`): protecting a name, recovering it on another device, and the one
//! check that every request acting as a name passes through ([`proven_name`]): creating a room, playing vs
//! bots, starting a challenge, and a WebSocket's `hello`.

use std::net::IpAddr;

use axum::Json;
use axum::extract::State;
use tokio::time::Duration;

use super::common::{AppError, AppState, Body, ClientAddr, Params, path_name, rate_limited, valid_name};
use crate::domain::names::{PlayerName, Secrets, key_digest, recovery_digest, same_digest};
use crate::wire::http::{NameCard, NameSecrets, ProtectName, RecoverName};
use crate::wire::protocol::ErrorCode;

/// `POST /api/names/protect`: protects a name nobody has protected, answering its key and recovery code
/// (once: the server keeps only their digests). An address protects a few names an hour
/// ([`super::limit::PROTECTS`]).
pub(super) async fn protect(
    State(state): State<AppState>,
    ClientAddr(from): ClientAddr,
    Body(req): Body<ProtectName>,
) -> Result<Json<NameSecrets>, AppError> {
    let name = valid_name(&req.name)?;
    if let Some(ip) = from {
        state.protects.check(ip).map_err(rate_limited)?;
    }
    let secrets = Secrets::draw(&mut rand::rng());
    if !state.rooms.db().protect_name(&name, &secrets.digests(), state.rooms.now_ms()).await? {
        let message = format!("{name} is protected already");
        return Err(AppError::new(ErrorCode::AlreadyProtected, message));
    }
    tracing::info!(%name, "name protected");
    Ok(Json(NameSecrets { name: name.into(), key: secrets.key, recovery: secrets.recovery }))
}

/// `GET /api/names/{name}`: the name as the server reads it (a 400 for no name), with its key.
pub(super) async fn card(
    State(state): State<AppState>,
    Params(name): Params<String>,
) -> Result<Json<NameCard>, AppError> {
    let name = path_name(&name)?;
    let protected = state.rooms.db().name_protection(&name).await?.is_some();
    Ok(Json(NameCard { key: name.key().clone(), name: name.into(), protected }))
}

/// `POST /api/names/recover`: a protected name's recovery code for a new key and a new code; the old key
/// and code stop working. Wrong codes count against the name and the address ([`super::limit::Guesses`]).
pub(super) async fn recover(
    State(state): State<AppState>,
    ClientAddr(from): ClientAddr,
    Body(req): Body<RecoverName>,
) -> Result<Json<NameSecrets>, AppError> {
    let name = valid_name(&req.name)?;
    let db = state.rooms.db();
    // Only protected names are counted (which names are protected is no secret: the boards say).
    let Some(stored) = db.name_protection(&name).await? else {
        return Err(AppError::new(ErrorCode::NameNotProtected, format!("{name} is not protected")));
    };
    let key = name.key();
    state.guesses.take(Some(key), from).map_err(too_many_guesses)?;
    let wrong = || AppError::new(ErrorCode::WrongRecoveryCode, "that is not the name's recovery code");
    let given = recovery_digest(&req.code).ok_or_else(wrong)?;
    if !same_digest(&given, &stored.recovery) {
        return Err(wrong());
    }
    let secrets = Secrets::draw(&mut rand::rng());
    // Only if the code is still the one just checked: of two recoveries at once, one wins.
    if !db.replace_name_secrets(&name, &stored.recovery, &secrets.digests(), state.rooms.now_ms()).await? {
        return Err(wrong());
    }
    state.guesses.give_back(Some(key), from);
    tracing::info!(%name, "name recovered");
    Ok(Json(NameSecrets { name: name.into(), key: secrets.key, recovery: secrets.recovery }))
}

/// `name` checked ([`valid_name`]) and, if it is protected, proven by `key`: refused `name_protected`
/// without the right key. Wrong keys count against the address. The protection is read from the database
/// each time, so that every node of a cluster knows a name the moment it is protected or recovered.
pub(super) async fn proven_name(
    state: &AppState,
    name: &str,
    key: Option<&str>,
    from: Option<IpAddr>,
) -> Result<PlayerName, AppError> {
    let name = valid_name(name)?;
    let Some(stored) = state.rooms.db().name_protection(&name).await? else {
        return Ok(name);
    };
    let refused = || {
        let message = format!("{name} is protected: only its owner's browser, which keeps its key, plays under it");
        AppError::new(ErrorCode::NameProtected, message)
    };
    // No key is no guess: someone typed a name they did not know was taken.
    let key = key.ok_or_else(refused)?;
    state.guesses.take(None, from).map_err(too_many_guesses)?;
    if !same_digest(&key_digest(key), &stored.key) {
        return Err(refused());
    }
    state.guesses.give_back(None, from);
    Ok(name)
}

fn too_many_guesses(wait: Duration) -> AppError {
    let message = format!("too many wrong keys or codes: try again in {} s", wait.as_secs_f64().ceil());
    AppError::new(ErrorCode::TooManyGuesses, message).retry_after(wait)
}
