//! The server's layers (docs/architecture.md, "Layers of the server"), kept by a test: every file of
//! `src/` imports only from its own layer or the layers below it, and no files import each other in a
//! circle. Imports are read from the code as text (`crate::…` and `super::…` paths outside comments and
//! test modules), resolved to the file that defines the module they name.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers from the bottom up, each a list of top-level modules (`crate` is `lib.rs`).
const LAYERS: &[&[&str]] = &[
    &["clock", "metrics", "work"],
    &["domain"],
    &["wire"],
    &["store"],
    &["room"],
    &["rooms"],
    &["cluster"],
    &["matching", "upkeep"],
    &["http"],
    &["crate"],
];

/// Every source file by module path (`domain::room`, `http`, `crate`).
fn modules(src: &Path) -> BTreeMap<String, PathBuf> {
    let mut found = BTreeMap::new();
    let mut pending = vec![src.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("src is readable").flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(src).unwrap().with_extension("");
            let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            let module = if parts == ["lib"] { "crate".to_string() } else { parts.join("::") };
            found.insert(module, path);
        }
    }
    found
}

/// The code of a file without comments and without its test module.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("a source file");
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines().map(|line| line.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n")
}

/// The module paths a file's code names, as written after `crate::` or resolved from `super::`.
fn named_paths(module: &str, code: &str) -> Vec<String> {
    let parent = match module.rsplit_once("::") {
        Some((parent, _)) => parent.to_string(),
        None => String::new(),
    };
    let mut paths = Vec::new();
    for (prefix, base) in [("crate::", String::new()), ("super::", parent)] {
        let mut rest = code;
        while let Some(at) = rest.find(prefix) {
            let before = rest[..at].chars().last();
            rest = &rest[at + prefix.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            // `crate::a::b`, and `crate::a::{b, c::d}`: each name inside the braces, after the path before them.
            let path: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
            let after = &rest[path.len()..];
            let names: Vec<String> = match after.strip_prefix('{') {
                Some(group) => group
                    .split('}')
                    .next()
                    .unwrap_or_default()
                    .split(',')
                    .map(|name| format!("{path}{}", name.trim()))
                    .collect(),
                None => vec![path],
            };
            for name in names {
                let name: String = name.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
                let name = name.trim_end_matches(':');
                if name.is_empty() {
                    continue;
                }
                paths.push(if base.is_empty() { name.to_string() } else { format!("{base}::{name}") });
            }
        }
    }
    paths
}

/// The file a path leads to: the longest module path that starts it.
fn resolve<'a>(path: &str, modules: &'a BTreeMap<String, PathBuf>) -> &'a str {
    let parts: Vec<&str> = path.split("::").collect();
    (1..=parts.len())
        .rev()
        .map(|n| parts[..n].join("::"))
        .find_map(|candidate| modules.get_key_value(&candidate).map(|(k, _)| k.as_str()))
        .unwrap_or("crate")
}

fn layer(module: &str) -> usize {
    let top = module.split("::").next().unwrap_or(module);
    LAYERS.iter().position(|layer| layer.contains(&top)).unwrap_or_else(|| panic!("{module} is in no layer"))
}

fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules = modules(&src);
    modules
        .iter()
        .map(|(module, path)| {
            let targets = named_paths(module, &code(path))
                .iter()
                .map(|named| resolve(named, &modules).to_string())
                .filter(|target| target != module)
                .collect();
            (module.clone(), targets)
        })
        .collect()
}

#[test]
fn no_file_imports_from_a_layer_above_its_own() {
    let upward: Vec<String> = imports()
        .iter()
        .flat_map(|(from, targets)| {
            targets.iter().filter(|to| layer(to) > layer(from)).map(move |to| format!("{from} -> {to}"))
        })
        .collect();
    assert!(upward.is_empty(), "imports that run back up: {upward:#?}");
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let graph = imports();
    // Depth-first, colouring each file: a file met again while still on the path closes a circle.
    fn visit(
        file: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        on_path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        circles: &mut Vec<String>,
    ) {
        if done.contains(file) {
            return;
        }
        if let Some(at) = on_path.iter().position(|f| f == file) {
            circles.push(format!("{} -> {file}", on_path[at..].join(" -> ")));
            return;
        }
        on_path.push(file.to_string());
        for next in graph.get(file).into_iter().flatten() {
            visit(next, graph, on_path, done, circles);
        }
        on_path.pop();
        done.insert(file.to_string());
    }
    let (mut done, mut circles) = (BTreeSet::new(), Vec::new());
    for file in graph.keys() {
        visit(file, &graph, &mut Vec::new(), &mut done, &mut circles);
    }
    assert!(circles.is_empty(), "import circles: {circles:#?}");
}

#[test]
fn the_import_reader_sees_every_kind_of_path() {
    let code =
        "use crate::room::{Msg, Registry};\nuse super::{mailbox::ask, Timing};\nlet x = crate::metrics::gauge!();";
    let named = named_paths("room::task", code);
    assert_eq!(named, ["room::Msg", "room::Registry", "metrics::gauge", "room::mailbox::ask", "room::Timing"]);
    let modules: BTreeMap<String, PathBuf> =
        ["crate", "room", "room::mailbox", "metrics"].iter().map(|m| (m.to_string(), PathBuf::new())).collect();
    assert_eq!(resolve("room::mailbox::ask", &modules), "room::mailbox");
    assert_eq!(resolve("room::Msg", &modules), "room");
    assert!(layer("http::api") > layer("room::task"));
}
