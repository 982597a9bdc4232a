//! The layers of the crate (docs/architecture.md, "## Modules"): the top-level modules of
//! `src/` import one another without a cycle, and the doc's diagram is their import graph, read
//! from the code: every row names a module and everything it imports, and every import points
//! to a lower layer. An import added against the layers, or one the diagram does not show,
//! fails here.
//!
//! An import is a path `crate::<module>` (`commsched::<module>` in the binary, `main.rs` and
//! `cli/`, which count as the module `cli`) in code: comments (doc links included), strings
//! and `#[cfg(test)] mod` bodies are not imports; `super::` stays inside a module.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module and the modules it imports.
type Graph = BTreeMap<String, BTreeSet<String>>;

/// `src`, without comments and the contents of string and character literals (each replaced by
/// a space, newlines kept).
fn code_only(src: &str) -> String {
    let s: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    while i < s.len() {
        let next = |k: usize| s.get(i + k).copied().unwrap_or('\0');
        let start = i;
        if s[i] == '/' && next(1) == '/' {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if s[i] == '/' && next(1) == '*' {
            let mut depth = 0;
            while i < s.len() {
                match (s[i], s.get(i + 1).copied().unwrap_or('\0')) {
                    ('/', '*') => (depth, i) = (depth + 1, i + 2),
                    ('*', '/') => (depth, i) = (depth - 1, i + 2),
                    _ => i += 1,
                }
                if depth == 0 {
                    break;
                }
            }
        } else if s[i] == 'r' && matches!(next(1), '"' | '#') && (i == 0 || !ident(s[i - 1])) {
            // A raw string r"…", r#"…"#: it ends at a quote followed by as many hashes.
            let hashes = s[i + 1..].iter().take_while(|&&c| c == '#').count();
            if s.get(i + 1 + hashes) != Some(&'"') {
                out.push(s[i]);
                i += 1;
                continue;
            }
            i += hashes + 2;
            while i < s.len()
                && !(s[i] == '"' && s[i + 1..].iter().take(hashes).filter(|&&c| c == '#').count() == hashes)
            {
                i += 1;
            }
            i += hashes + 1;
        } else if s[i] == '"' {
            i += 1;
            while i < s.len() && s[i] != '"' {
                i += if s[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if s[i] == '\'' && next(1) == '\\' {
            i += 3;
            while i < s.len() && s[i] != '\'' {
                i += 1;
            }
            i += 1;
        } else if s[i] == '\'' && next(2) == '\'' {
            i += 3;
        } else {
            out.push(s[i]);
            i += 1;
            continue;
        }
        let end = i.min(s.len());
        out.extend(s[start..end].iter().map(|&c| if c == '\n' { '\n' } else { ' ' }));
    }
    out
}

/// `code` without the bodies of `#[cfg(test)] mod … { … }`.
fn without_test_modules(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        let item = after.trim_start();
        let open = item.find('{').filter(|&o| item.starts_with("mod ") && !item[..o].contains(';'));
        let Some(open) = open else {
            rest = after;
            continue;
        };
        let mut depth = 0;
        let close = item[open..]
            .char_indices()
            .find(|&(_, c)| {
                depth += match c {
                    '{' => 1,
                    '}' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .map(|(k, _)| open + k + 1)
            .expect("a test module closes");
        rest = &item[close..];
    }
    out + rest
}

/// The first identifier of every path that `root::` starts in `code`: `crate::a::b` gives `a`,
/// `crate::{a, b::c}` gives `a` and `b`.
fn imported(code: &str, root: &str) -> BTreeSet<String> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let first = |path: &str| path.trim().chars().take_while(|&c| ident(c)).collect::<String>();
    let mut found = BTreeSet::new();
    let pattern = format!("{root}::");
    for (at, _) in code.match_indices(&pattern) {
        if code[..at].chars().next_back().is_some_and(|c| ident(c) || c == '$') {
            continue;
        }
        let rest = &code[at + pattern.len()..];
        if let Some(group) = rest.trim_start().strip_prefix('{') {
            // Split the group at its top-level commas.
            let mut depth = 0;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.insert(first(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            found.insert(first(&item));
        } else {
            found.insert(first(rest));
        }
    }
    found.retain(|m| !m.is_empty() && m != "self");
    found
}

/// The import graph of the top-level modules of `src/`, read from the code.
fn code_graph(root: &Path) -> Graph {
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).expect("src/lib.rs");
    let mut graph: Graph = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod ")?.strip_suffix(';'))
        .map(|m| (m.to_string(), BTreeSet::new()))
        .collect();
    graph.insert("cli".into(), BTreeSet::new());
    // What lib.rs re-exports (`pub use error::{Error, …}`) is its module's.
    let mut owner: BTreeMap<String, String> = graph.keys().map(|m| (m.clone(), m.clone())).collect();
    for export in lib.lines().filter_map(|l| l.strip_prefix("pub use ")) {
        let module = export.split("::").next().expect("a path");
        for name in imported(export, module) {
            owner.insert(name, module.to_string());
        }
    }
    let mut files = Vec::new();
    super::catalogue::walk(&root.join("src"), &["rs"], &mut files);
    for file in files {
        let relative = file.strip_prefix(root.join("src")).expect("under src");
        let top = relative.iter().next().and_then(|c| c.to_str()).expect("a file name");
        let (module, path_root) = match top.trim_end_matches(".rs") {
            "lib" => continue,
            "main" | "cli" => ("cli", "commsched"),
            m => (m, "crate"),
        };
        let text = std::fs::read_to_string(&file).expect("a source file");
        let code = without_test_modules(&code_only(&text));
        for name in imported(&code, path_root) {
            let target = owner
                .get(&name)
                .unwrap_or_else(|| panic!("{}: `{path_root}::{name}` is no module", file.display()));
            if target != module {
                graph.get_mut(module).expect("a module of lib.rs").insert(target.clone());
            }
        }
    }
    graph
}

/// The diagram of docs/architecture.md: the first fenced block under "## Modules", one row per
/// module, `module → what it imports`, layers separated by blank lines, the highest first. The
/// layers, each a list of its rows.
fn doc_layers(root: &Path) -> Vec<Vec<(String, BTreeSet<String>)>> {
    let doc = std::fs::read_to_string(root.join("docs/architecture.md")).expect("docs/architecture.md");
    let section = doc.split("\n## Modules\n").nth(1).expect("a \"## Modules\" section");
    let block = section.split("```").nth(1).expect("a fenced diagram");
    let mut layers = vec![Vec::new()];
    for line in block.lines().skip(1) {
        if line.trim().is_empty() {
            if layers.last().is_some_and(|l| !l.is_empty()) {
                layers.push(Vec::new());
            }
            continue;
        }
        let (module, imports) = line.split_once('→').unwrap_or((line, ""));
        let row = (module.trim().to_string(), imports.split_whitespace().map(str::to_string).collect());
        layers.last_mut().expect("a layer").push(row);
    }
    layers.retain(|l| !l.is_empty());
    layers
}

/// A cycle of `graph`, when it has one, as the modules along it.
fn cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit<'g>(
        graph: &'g Graph,
        m: &'g str,
        path: &mut Vec<&'g str>,
        done: &mut BTreeSet<&'g str>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|&p| p == m) {
            return Some(path[at..].iter().chain([&m]).map(|s| s.to_string()).collect());
        }
        if !done.insert(m) {
            return None;
        }
        path.push(m);
        let found = graph[m].iter().find_map(|n| visit(graph, n, path, done));
        path.pop();
        found
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|m| visit(graph, m, &mut Vec::new(), &mut done))
}

#[test]
fn the_modules_import_one_another_without_a_cycle() {
    let graph = code_graph(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert_eq!(cycle(&graph), None, "an import cycle between top-level modules");
}

#[test]
fn the_architecture_diagram_is_the_import_graph_in_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let graph = code_graph(root);
    let layers = doc_layers(root);
    let drawn: Graph = layers.iter().flatten().cloned().collect();
    let rows = layers.iter().map(Vec::len).sum::<usize>();
    let as_drawn = |g: &Graph| {
        g.iter()
            .map(|(m, imports)| format!("{m} → {}", imports.iter().cloned().collect::<Vec<_>>().join(" ")))
            .collect::<Vec<_>>()
    };
    assert_eq!(rows, drawn.len(), "a module drawn twice");
    assert_eq!(
        as_drawn(&drawn),
        as_drawn(&graph),
        "the diagram is not the import graph (left: drawn, right: code)"
    );
    let layer_of: BTreeMap<&str, usize> =
        layers.iter().enumerate().flat_map(|(k, l)| l.iter().map(move |(m, _)| (m.as_str(), k))).collect();
    for (module, imports) in &graph {
        for target in imports {
            assert!(
                layer_of[module.as_str()] < layer_of[target.as_str()],
                "{module} imports {target}, which is not drawn in a lower layer"
            );
        }
    }
}

#[test]
fn the_scanner_reads_imports_in_code_only() {
    let src = r##"
use crate::{spec::{self, Instance}, checker as c};
use crate::error::Error; // crate::exact
/// [`crate::compare`]
let s = "crate::draw"; let r = r#"crate::heuristics"#; let q = '"'; let l: &'a str = x; crate::bounds::f();
/* crate::claims /* nested */ crate::svg */ $crate::rng
#[cfg(test)]
mod tests { use crate::folder; fn f() { {} } }
crate::names::intern
"##;
    let code = without_test_modules(&code_only(src));
    let found: Vec<String> = imported(&code, "crate").into_iter().collect();
    assert_eq!(found, ["bounds", "checker", "error", "names", "spec"]);
}
