//! Tournaments over HTTP (docs/tournaments.md): the lists, one tournament's page, creating one,
//! registering and withdrawing. Every node answers from the database, as quick match does.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use ddz_engine::TableType;

use super::common::{AppError, AppState, Body, ClientAddr, Params, Queried, origin_address, path_name};
use super::names::proven_name;
use crate::domain::tournament::{
    BOTS_AFTER_MS, BOUNDS, SCHEDULED_FIELD, SettingsDraft, SettingsError, TITLE_CHARS, seats, sit_and_go_sizes,
};
use crate::tournaments::{Creating, DeskError};
use crate::wire::http::{
    CreateTournament, SitAndGoDefaults, TableTournaments, TournamentCreated, TournamentEntry, TournamentRecord,
    TournamentRules, TournamentView, Tournaments,
};
use crate::wire::pages::TournamentFollow;
use crate::wire::protocol::{ErrorCode, Refused};

impl From<DeskError> for AppError {
    fn from(e: DeskError) -> AppError {
        AppError::from(Refused::from(e))
    }
}

/// `GET /api/tournaments`: upcoming, running and finished.
pub(super) async fn list(State(state): State<AppState>) -> Result<Json<Tournaments>, AppError> {
    Ok(Json(state.desk.list().await?))
}

/// `GET /api/tournaments/{id}`: settings, standings, rounds and tables.
pub(super) async fn view(
    State(state): State<AppState>,
    Params(id): Params<String>,
) -> Result<Json<TournamentView>, AppError> {
    Ok(Json(state.desk.view(&id).await?))
}

#[derive(serde::Deserialize)]
pub(super) struct PageQuery {
    /// The reader, whose own place the answer adds.
    name: Option<String>,
}

/// `GET /api/tournaments/{id}/page?name=NAME`: what the page shows (the leaders, the round in play's
/// tables, the path), and where `name` stands; the `follow_tournament` socket pushes the same.
pub(super) async fn page(
    State(state): State<AppState>,
    Params(id): Params<String>,
    Queried(query): Queried<PageQuery>,
) -> Result<Json<TournamentFollow>, AppError> {
    let reader = query.name.as_deref().filter(|name| !name.trim().is_empty()).map(path_name).transpose()?;
    let followed = state.desk.page(&id).await?;
    Ok(Json(followed.answer(reader.as_ref(), state.rooms.now_ms())))
}

/// `GET /api/tournaments/{id}/record`: a finished tournament's public record, to check its draw.
pub(super) async fn record(
    State(state): State<AppState>,
    Params(id): Params<String>,
) -> Result<Json<TournamentRecord>, AppError> {
    Ok(Json(state.desk.record(&id).await?))
}

/// `GET /api/tournaments/rules`: what the create form offers, from the rules themselves.
pub(super) async fn rules() -> Json<TournamentRules> {
    let tables = [TableType::House, TableType::NoShuffle, TableType::TwoPlayer]
        .into_iter()
        .map(|table| TableTournaments {
            table,
            seats: seats(table),
            sit_and_go: sit_and_go_sizes(table)
                .into_iter()
                .map(|size| SitAndGoDefaults { size, settings: SettingsDraft::default_for(table, size) })
                .collect(),
            scheduled: SettingsDraft::default_for(table, SCHEDULED_FIELD),
        })
        .collect();
    Json(TournamentRules { tables, bounds: BOUNDS, bots_after_ms: BOTS_AFTER_MS, title_chars: TITLE_CHARS })
}

/// A tournament body the server cannot read: a field or a kind it does not know is a setting refused
/// (`bad_settings`, serde's words name it); any other shape, a bad request.
fn strict(e: serde_json::Error) -> Refused {
    let message = e.to_string();
    let unknown = message.starts_with("unknown field") || message.starts_with("unknown variant");
    Refused::new(if unknown { ErrorCode::BadSettings } else { ErrorCode::BadRequest }, message)
}

/// `POST /api/tournaments`: a new sit-and-go or scheduled event, hosted by the name. The body is read
/// strictly: a field the server does not know, a setting that contradicts the table, or a title too long
/// is refused `bad_settings`, naming the field.
pub(super) async fn create(
    State(state): State<AppState>,
    ClientAddr(from): ClientAddr,
    Body(body): Body<serde_json::Value>,
) -> Result<(StatusCode, Json<TournamentCreated>), AppError> {
    let req: CreateTournament = serde_json::from_value(body).map_err(strict)?;
    let host = proven_name(&state, &req.name, req.key.as_deref(), from).await?;
    let field = req.format.size().unwrap_or(SCHEDULED_FIELD);
    let settings = match req.settings {
        Some(settings) if settings.table != req.table => {
            let contradiction = SettingsError::Table { table: req.table, settings: settings.table };
            return Err(DeskError::from(contradiction).into());
        }
        Some(settings) => settings,
        None => SettingsDraft::default_for(req.table, field),
    };
    let creating = Creating { host, title: req.title, format: req.format, settings };
    let id = state.desk.create(creating, None).await?;
    // A fresh id already taken (ten random characters: all but never) is told as a busy moment.
    let id = id.ok_or(DeskError::Contended)?;
    Ok((StatusCode::CREATED, Json(TournamentCreated { id })))
}

/// `POST /api/tournaments/{id}/register`: 204 once the name is registered (the page says the rest).
pub(super) async fn register(
    State(state): State<AppState>,
    ClientAddr(from): ClientAddr,
    Params(id): Params<String>,
    Body(req): Body<TournamentEntry>,
) -> Result<StatusCode, AppError> {
    let name = proven_name(&state, &req.name, req.key.as_deref(), from).await?;
    state.desk.register(&id, &name, origin_address(from)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/tournaments/{id}/withdraw`: 204 once the name is withdrawn.
pub(super) async fn withdraw(
    State(state): State<AppState>,
    ClientAddr(from): ClientAddr,
    Params(id): Params<String>,
    Body(req): Body<TournamentEntry>,
) -> Result<StatusCode, AppError> {
    let name = proven_name(&state, &req.name, req.key.as_deref(), from).await?;
    state.desk.withdraw(&id, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}
