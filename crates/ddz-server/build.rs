//! Builds the browser client (`web/`) into `web/dist`, which `server.rs` embeds with rust-embed.
//!
//! First the rules engine for the page: `crates/ddz-wasm` for `wasm32-unknown-unknown` (adding the target
//! with rustup if it is missing), in its own target directory `target/wasm` (this build holds the lock
//! of the outer one), copied to `web/src/lib/engine/ddz.wasm` when its bytes changed. Then runs `npm ci`
//! (only when `web/node_modules` is missing) and `npm run build` when a source file is newer than
//! `web/dist/index.html`. With `DDZ_SKIP_WEB=1` nothing is built; if there is no build yet,
//! a placeholder page is written so that the server still compiles.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::SystemTime;

/// Marks the placeholder page, so that a later build without `DDZ_SKIP_WEB` replaces it.
const PLACEHOLDER: &str = "<!-- ddz placeholder -->";

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let web = manifest.join("../../web");
    let dist_index = web.join("dist/index.html");
    println!("cargo:rerun-if-env-changed=DDZ_SKIP_WEB");
    for wasm_source in [
        "crates/ddz-engine/src",
        "crates/ddz-engine/Cargo.toml",
        "crates/ddz-bot/src",
        "crates/ddz-bot/Cargo.toml",
        "crates/ddz-wasm",
        "Cargo.lock",
    ] {
        println!("cargo:rerun-if-changed={}", manifest.join("../..").join(wasm_source).display());
    }
    let sources: Vec<PathBuf> = ["src", "public", "index.html", "package.json", "package-lock.json", "vite.config.ts"]
        .iter()
        .map(|p| web.join(p))
        .filter(|p| p.exists())
        .collect();
    for path in sources.iter().chain([&dist_index]) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    if std::env::var("DDZ_SKIP_WEB").is_ok_and(|v| v == "1") || !web.join("package.json").exists() {
        if !dist_index.exists() {
            placeholder(&dist_index);
        }
        return;
    }
    build_wasm(&manifest.join("../.."));
    let built = std::fs::read_to_string(&dist_index).ok().filter(|html| !html.contains(PLACEHOLDER));
    let sources_at = sources.iter().map(|s| newest(s)).max().unwrap_or(SystemTime::UNIX_EPOCH);
    if built.is_some() && sources_at <= modified(&dist_index) {
        return;
    }
    if !web.join("node_modules").exists() {
        npm(&web, &["ci"]);
    }
    npm(&web, &["run", "build"]);
    // Date the build by its newest source, not by now: cargo reruns this script when a tracked file is
    // newer than the script's start, and the build itself should not count as a change.
    set_modified(&dist_index, sources_at);
}

/// The page's engine: `crates/ddz-wasm` built for the browser and put where Vite bundles it.
fn build_wasm(root: &Path) {
    const TARGET: &str = "wasm32-unknown-unknown";
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let sysroot = Command::new(&rustc).args(["--print", "sysroot"]).output().expect("run rustc --print sysroot");
    let sysroot = PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim());
    if !sysroot.join("lib/rustlib").join(TARGET).exists() {
        eprintln!("the Rust standard library for {TARGET} is missing: running rustup target add {TARGET}");
        let status = Command::new("rustup")
            .args(["target", "add", TARGET])
            .stdout(Stdio::from(std::io::stderr()))
            .status()
            .unwrap_or_else(|e| panic!("could not run rustup ({e}): add the {TARGET} target, or set DDZ_SKIP_WEB=1"));
        assert!(status.success(), "rustup target add {TARGET} failed ({status})");
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    eprintln!("building crates/ddz-wasm for {TARGET}");
    let status = Command::new(cargo)
        .args(["build", "--release", "-p", "ddz-wasm", "--target", TARGET, "--target-dir"])
        .arg(root.join("target/wasm"))
        .current_dir(root)
        // The outer build's flags are for the host (coverage, a CPU), not for the browser, and its
        // workspace wrapper (clippy-driver under `cargo clippy`) is for checking, not for building.
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET")
        // Small: no debug info, one unit optimised as a whole.
        .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
        .env("CARGO_PROFILE_RELEASE_STRIP", "true")
        .env("CARGO_PROFILE_RELEASE_LTO", "true")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "1")
        .stdout(Stdio::from(std::io::stderr()))
        .status()
        .expect("run cargo for crates/ddz-wasm");
    assert!(status.success(), "building crates/ddz-wasm for {TARGET} failed ({status})");
    let built = std::fs::read(root.join("target/wasm").join(TARGET).join("release/ddz_wasm.wasm"))
        .expect("cargo built ddz_wasm.wasm");
    let bundled = root.join("web/src/lib/engine/ddz.wasm");
    // Written only when it changed: a new file is a new web build.
    if std::fs::read(&bundled).ok().as_ref() != Some(&built) {
        std::fs::write(&bundled, built).expect("write web/src/lib/engine/ddz.wasm");
    }
}

fn set_modified(path: &Path, time: SystemTime) {
    let file = std::fs::File::options().write(true).open(path).expect("web/dist/index.html was written");
    file.set_modified(time).expect("set the modification time of web/dist/index.html");
}

fn npm(dir: &Path, args: &[&str]) {
    eprintln!("running npm {} in {}", args.join(" "), dir.display());
    let status = Command::new("npm")
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::from(std::io::stderr()))
        .stderr(Stdio::inherit())
        .status()
        .unwrap_or_else(|e| panic!("could not run npm ({e}): install Node.js 20+, or set DDZ_SKIP_WEB=1"));
    assert!(status.success(), "npm {} failed in {} ({status})", args.join(" "), dir.display());
}

fn modified(path: &Path) -> SystemTime {
    path.metadata().and_then(|m| m.modified()).unwrap_or(SystemTime::UNIX_EPOCH)
}

/// The newest modification time of a file, or of any file under a directory.
fn newest(path: &Path) -> SystemTime {
    let mut time = modified(path);
    if path.is_dir()
        && let Ok(entries) = std::fs::read_dir(path)
    {
        for entry in entries.flatten() {
            time = time.max(newest(&entry.path()));
        }
    }
    time
}

fn placeholder(index: &Path) {
    std::fs::create_dir_all(index.parent().expect("dist has a parent")).expect("create web/dist");
    let html = format!(
        "<!doctype html>{PLACEHOLDER}<meta charset=\"utf-8\"><title>Dou Dizhu</title>\
         <p>The web client was not built (DDZ_SKIP_WEB=1). Build it with <code>npm ci && npm run build</code> in web/.</p>\n"
    );
    std::fs::write(index, html).expect("write the placeholder web/dist/index.html");
    set_modified(index, SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1));
}
