//! The web client's wire types (`web/src/lib/wire.ts`) are the ones generated from the server's Rust
//! types. After changing a wire type, `DDZ_BLESS=1 cargo test -p ddz-server --test server wire_types` rewrites
//! the file.

use std::path::PathBuf;

#[test]
fn the_web_clients_wire_types_are_generated_from_the_servers() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web/src/lib/wire.ts");
    let generated = ddz_server::wire::typescript();
    if std::env::var("DDZ_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &generated).expect("wire.ts is writable");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "web/src/lib/wire.ts is not what the Rust types generate: run DDZ_BLESS=1 cargo test -p ddz-server --test server wire_types"
    );
}
