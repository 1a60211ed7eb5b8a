//! Builds the browser client (`web/`) into `web/dist`, which `server.rs` embeds with rust-embed.
//!
//! Runs `npm ci` (only when `web/node_modules` is missing) and `npm run build` when a source file is
//! newer than `web/dist/index.html`. With `DDZ_SKIP_WEB=1` nothing is built; if there is no build yet,
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
