//! The browser client's files, embedded in the binary.

use super::common::AppError;
use crate::wire::protocol::ErrorCode;
use axum::response::{IntoResponse, Response};

/// The browser client, built from `web/` into `web/dist` and embedded in the binary.
#[derive(rust_embed::RustEmbed)]
#[folder = "../../web/dist"]
struct WebClient;

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json" | "map") => "application/json",
        Some("webmanifest") => "application/manifest+json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("webp") => "image/webp",
        Some("woff2") => "font/woff2",
        // `WebAssembly.instantiateStreaming` needs this type.
        Some("wasm") => "application/wasm",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Serves the client's files; any other path that is not an API path gets `index.html` (the client
/// routes by itself).
pub(super) async fn web_client(uri: axum::http::Uri) -> Response {
    use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
    let path = uri.path().trim_start_matches('/');
    if path.starts_with("api/") || ["api", "ws", "healthz", "readyz", "metrics"].contains(&path) {
        return AppError::new(ErrorCode::NotFound, format!("no endpoint /{path}")).into_response();
    }
    let (name, file) = match WebClient::get(path).filter(|_| !path.is_empty()) {
        Some(file) => (path, file),
        None => match WebClient::get("index.html") {
            Some(file) => ("index.html", file),
            None => return AppError::new(ErrorCode::NotFound, "the web client was not built").into_response(),
        },
    };
    // Vite names the files under assets/ by their content hash.
    let cache = if name.starts_with("assets/") { "public, max-age=31536000, immutable" } else { "no-cache" };
    ([(CONTENT_TYPE, content_type(name)), (CACHE_CONTROL, cache)], file.data).into_response()
}
