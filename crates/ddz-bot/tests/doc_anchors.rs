//! The code points into the docs (`docs/bots.md#cautious`) for the figures behind a constant; every such
//! pointer must name a heading of that doc, so that renaming a section or a constant breaks here, not
//! for a reader.

use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// GitHub's anchor for a heading: lower case, punctuation other than `-` and `_` dropped, spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(doc: &str) -> Vec<String> {
    doc.lines().filter_map(|line| line.strip_prefix('#')).map(|h| anchor(h.trim_start_matches('#'))).collect()
}

/// Every `docs/NAME.md#ANCHOR` in the crate's sources, with the file it is in.
fn pointers() -> Vec<(PathBuf, String, String)> {
    let mut found = Vec::new();
    let mut pending = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(dir) = pending.pop() {
        for path in std::fs::read_dir(&dir).expect("src is readable").flatten().map(|e| e.path()) {
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            for (at, _) in text.match_indices("docs/") {
                let rest = &text[at + "docs/".len()..];
                let Some((doc, after)) = rest.split_once(".md#") else { continue };
                if !doc.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_') {
                    continue;
                }
                let target: String =
                    after.chars().take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_').collect();
                found.push((path.clone(), format!("{doc}.md"), target));
            }
        }
    }
    found
}

#[test]
fn every_pointer_from_the_code_into_the_docs_names_a_heading() {
    let pointers = pointers();
    assert!(pointers.len() >= 10, "the search's constants point into docs/bots.md: {pointers:?}");
    let broken: Vec<String> = pointers
        .iter()
        .filter(|(_, doc, target)| {
            let text = std::fs::read_to_string(workspace().join("docs").join(doc)).unwrap_or_default();
            !anchors(&text).contains(target)
        })
        .map(|(path, doc, target)| format!("{}: docs/{doc}#{target}", path.display()))
        .collect();
    assert!(broken.is_empty(), "pointers to no heading: {broken:#?}");
}

#[test]
fn anchors_are_githubs() {
    assert_eq!(anchor(" How the search's constants were chosen"), "how-the-searchs-constants-were-chosen");
    assert_eq!(
        anchor("The searching side's rollouts (`Sim::rollout_choice`)"),
        "the-searching-sides-rollouts-simrollout_choice"
    );
    assert_eq!(anchors("# Bots\ntext\n### `HABIT_MARGIN`\n"), ["bots", "habit_margin"]);
}
