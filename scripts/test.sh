#!/usr/bin/env bash
# Every test of the project, on a fresh Debian machine: provisions what the tests need, then runs them.
#
# The browser tests drive Debian's Chromium (with CJK fonts for the Chinese UI and a colour emoji font for the chat's emotes); the PostgreSQL and
# cluster tests start their own PostgreSQL, nats-server and (the chaos and deployment tests) HAProxy and nginx from Debian's packages; the client's type check,
# unit tests and build need Node.js 20+ and its npm packages, and the engine in the page Rust's
# wasm32-unknown-unknown target (added with rustup). As root this installs what is missing with apt-get;
# otherwise it names exactly what to install and stops before running anything.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
dpkg -s fonts-noto-cjk >/dev/null 2>&1 || missing+=(fonts-noto-cjk)
dpkg -s fonts-noto-color-emoji >/dev/null 2>&1 || missing+=(fonts-noto-color-emoji)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
[ -x /usr/sbin/nats-server ] || missing+=(nats-server)
command -v haproxy >/dev/null || missing+=(haproxy)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  missing+=(nodejs npm)
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing what the tests need: ${missing[*]}"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
  else
    echo "The tests need these Debian packages, which are not installed: ${missing[*]}" >&2
    echo "Install them (sudo apt-get install -y ${missing[*]}) and run scripts/test.sh again." >&2
    exit 2
  fi
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "The web client needs Node.js 20 or newer; this machine has $(node --version)." >&2
  exit 2
fi

# The rules engine runs in the page too, compiled to WebAssembly: Rust's standard library for that target.
if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "adding the Rust target the page's engine is built for: wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# The client's npm packages as locked; then every test binary of the workspace, built once (the server's
# build.rs builds the engine's WebAssembly into web/src/lib/engine/ddz.wasm, which the client's unit tests
# load, and the client it embeds). No separate `cargo build`: the tests need the server built with its
# `testing` feature, and a second build of it without would cost minutes.
(cd web && npm ci --no-audit --no-fund)
mkdir -p target
cargo test --workspace --release --no-run --message-format=json-render-diagnostics >target/test-binaries.json
# Every doc link names a real item (private ones too: these crates' docs are for whoever works on them). With
# the features the tests were built with, the built crates' metadata is reused (seconds, not a check of all).
RUSTDOCFLAGS="-D warnings -A rustdoc::private_intra_doc_links" \
  cargo doc --release --workspace --no-deps --document-private-items --features ddz-server/testing
# The client: its type check (svelte-check with tsc) and its unit tests.
(cd web && npm run check && npm test)

# The Rust workspace's tests: the engine, the bots, the server (SQLite, PostgreSQL, the cluster with NATS),
# the binary, the doc tests, and the browser tests in Chromium side by side with the rest.
scripts/run-tests.sh target/test-binaries.json
