//! The server's layers (docs/architecture.md, "Layers of the server"), kept by a test: every file of
//! `src/` imports only from its own layer or the layers below it, and no files import each other in a
//! circle. Imports are read from the code as text (`crate::…` and `super::…` paths outside comments and
//! string literals), resolved to the file that defines the module they name.
//!
//! A file's test modules are read with it and held to the same rule: a unit test builds what it tests
//! from its own layer and those below (an in-memory `Db` under a room's task, say); a test that needs a
//! layer above belongs in `tests/`, which goes through the crate's public API.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers from the bottom up, each a list of top-level modules (`crate` is `lib.rs`).
const LAYERS: &[&[&str]] = &[
    &["background", "clock", "metrics", "work"],
    &["domain"],
    &["wire"],
    &["store"],
    &["room"],
    &["rooms"],
    &["cluster"],
    &["matching", "upkeep"],
    &["tournaments"],
    &["hall"],
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

/// The code of file `module` without comments and string literals, by the module each part is in: the
/// file's own, and `module::name` for each inline `mod name { … }` (a test module, whose `super::` is the
/// file's module).
fn code_by_module(module: &str, text: &str) -> BTreeMap<String, String> {
    let chars: Vec<char> = text.chars().collect();
    let at = |i: usize, s: &str| s.chars().enumerate().all(|(n, c)| chars.get(i + n) == Some(&c));
    let mut parts = BTreeMap::from([(module.to_string(), String::new())]);
    // The modules open here, innermost last, each with the brace depth its body ends at.
    let mut open = vec![(module.to_string(), 0)];
    let mut depth = 0;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let scope = &open.last().expect("the file's module stays open").0;
        let code = parts.get_mut(scope).expect("every open module has its code");
        let ident = |j: Option<usize>| j.and_then(|j| chars.get(j)).is_some_and(|c| c.is_alphanumeric() || *c == '_');
        let raw_prefix = !ident(i.checked_sub(1)) || (chars[i - 1] == 'b' && !ident(i.checked_sub(2)));
        if at(i, "//") {
            i = (i..chars.len()).find(|&j| chars[j] == '\n').unwrap_or(chars.len());
        } else if at(i, "/*") {
            i = (i + 2..chars.len()).find(|&j| at(j, "*/")).map_or(chars.len(), |j| j + 2);
        } else if c == '"' {
            // A string: skipped to its closing quote, escapes included, so that a brace in it counts for nothing.
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            code.push_str("\"\"");
            i = j + 1;
        } else if c == 'r' && raw_prefix && (at(i + 1, "\"") || at(i + 1, "#")) {
            // A raw string `r#"…"#` (or `br"…"`): it ends at a quote followed by as many hashes as it opened with.
            let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
            let close: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            let body = i + 2 + hashes;
            i = (body..chars.len()).find(|&j| at(j, &close)).map_or(chars.len(), |j| j + close.len());
            code.push_str("\"\"");
        } else if c == '\'' && at(i + 1, "\\") {
            // An escaped character literal (`'\''`, `'\u{7b}'`).
            i = (i + 3..chars.len()).find(|&j| chars[j] == '\'').map_or(chars.len(), |j| j + 1);
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            // A character literal (`'{'`); a lifetime (`'a`) is read on as code.
            i += 3;
        } else {
            if c == '{' {
                depth += 1;
                let head = code.trim_end();
                let name: String = head.chars().rev().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                let before = head[..head.len() - name.len()].trim_end();
                let keyword: String = before.chars().rev().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !name.is_empty() && keyword == "dom" {
                    let inline = format!("{scope}::{}", name.chars().rev().collect::<String>());
                    parts.entry(inline.clone()).or_default();
                    open.push((inline, depth));
                }
            } else if c == '}' {
                if open.len() > 1 && open.last().is_some_and(|(_, ends)| *ends == depth) {
                    open.pop();
                }
                depth -= 1;
            }
            let scope = &open.last().expect("the file's module stays open").0;
            parts.get_mut(scope).expect("every open module has its code").push(c);
            i += 1;
        }
    }
    parts
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
            let text = std::fs::read_to_string(path).expect("a source file");
            let targets = code_by_module(module, &text)
                .iter()
                .flat_map(|(scope, code)| named_paths(scope, code))
                .map(|named| resolve(&named, &modules).to_string())
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

#[test]
fn test_modules_are_read_and_their_super_is_the_file() {
    let text = r##"
use crate::store::Db; // crate::http in a comment
/* crate::cluster in a block comment */
fn f() -> &'static str { let (brace, quote) = ('{', '\''); "crate::matching and } in a string" }
#[cfg(test)]
mod tests {
    use super::Task;
    use crate::rooms::Rooms;
    const JSON: &str = r#"{"crate::upkeep": "}"}"#;
    const BYTES: &[u8] = br"crate::http }";
}
fn after_the_tests() { crate::work::run(); }
"##;
    let parts = code_by_module("room::task", text);
    assert_eq!(parts.keys().collect::<Vec<_>>(), ["room::task", "room::task::tests"]);
    assert_eq!(named_paths("room::task", &parts["room::task"]), ["store::Db", "work::run"]);
    assert_eq!(named_paths("room::task::tests", &parts["room::task::tests"]), ["rooms::Rooms", "room::task::Task"]);
}

/// The top-level modules of the layers, from the bottom up (all but `lib.rs`).
fn layered_modules() -> Vec<&'static str> {
    LAYERS.iter().flat_map(|layer| layer.iter().copied()).filter(|&m| m != "crate").collect()
}

#[test]
fn lib_rs_lists_every_module_in_its_layer_from_the_bottom_up() {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).expect("lib.rs");
    let listed: Vec<&str> = lib.lines().filter_map(|l| l.strip_prefix("//! - [`crate::")?.split('`').next()).collect();
    for module in layered_modules() {
        assert!(listed.contains(&module), "lib.rs's Layout leaves out `{module}`");
    }
    for pair in listed.windows(2) {
        assert!(layer(pair[0]) <= layer(pair[1]), "lib.rs's Layout lists `{}` below `{}`", pair[1], pair[0]);
    }
}

#[test]
fn architecture_md_names_every_module_in_the_row_of_its_layer() {
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/architecture.md");
    let doc = std::fs::read_to_string(doc).expect("docs/architecture.md");
    let section = doc.split("## Layers of the server").nth(1).expect("the section").split("\n## ").next().unwrap();
    // The table's rows, top-down, each with its files column.
    let rows: Vec<&str> = section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| layer"))
        .filter_map(|l| l.split(" | ").nth(1))
        .collect();
    let row_of = |module: &str| {
        let (file, folder) = (format!("`{module}.rs`"), format!("`{module}/"));
        rows.iter().position(|files| files.contains(&file) || files.contains(&folder))
    };
    for module in layered_modules() {
        let row = row_of(module).unwrap_or_else(|| panic!("docs/architecture.md's layers leave out `{module}`"));
        for other in layered_modules().into_iter().filter(|&other| layer(other) > layer(module)) {
            let above = row_of(other).expect("every module has its row");
            assert!(above < row, "docs/architecture.md puts `{module}` above `{other}`, a layer over it");
        }
    }
}
