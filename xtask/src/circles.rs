//! No import circles (issue 37): within each crate of the workspace, the modules' `crate::`,
//! `super::` and `self::` paths must form no circle. `cargo test --workspace` (so `cargo xtask
//! test`) runs [`tests::no_module_imports_another_that_imports_it`].
//!
//! Hand-written rather than `cargo-modules` (whose `dependencies --acyclic` needs a
//! rust-analyzer build, several minutes on two cores, installed on every fresh machine): the
//! graph needs only the files' paths, which `syn` (already built for the workspace's macros, with
//! these features) parses.
//!
//! The graph: one node per module file (`lib.rs`/`main.rs` is the crate's root, `a.rs` or
//! `a/mod.rs` is `a`, `a/b.rs` is `a::b`; inline modules such as `mod tests` belong to their
//! file). Every path in the file that starts with `crate`, `super` or `self` is an edge to the
//! deepest module it names; a name a module re-exports (`pub use b::Thing`) leads on to the
//! module it comes from, and a path that starts with a child module's name (`bundle::write` in
//! `split`) is an edge to it. A parent's uses of its children count, but a module's paths to its
//! own ancestors do not: a child is part of its parent (the crate's root holds what all share),
//! and a parent's re-exports (`pub use child::Name`) are not uses. So `split` → `split::bundle` →
//! `start_page` → `split` is a circle, and a child using `super::Shared` is not.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use syn::visit_mut::VisitMut;

/// A module's path below its crate's root (`[]` is the root).
type Module = Vec<String>;

/// The crates checked: (name, the folder of their `lib.rs` or `main.rs`).
pub const CRATES: [(&str, &str); 7] = [
    ("larder", "src"),
    ("larder-api", "crates/api/src"),
    ("larder-contract", "crates/contract/src"),
    ("larder-search", "crates/search/src"),
    ("larder-server", "crates/server/src"),
    ("larder-start", "crates/start/src"),
    ("xtask", "xtask/src"),
];

/// One crate's modules and what each uses.
#[derive(Debug, Default)]
pub struct Graph {
    /// Each module's file.
    pub files: BTreeMap<Module, PathBuf>,
    /// Each module's edges to other modules (not its own descendants).
    pub edges: BTreeMap<Module, BTreeSet<Module>>,
}

/// The module graph of the crate rooted in `folder`: its `lib.rs`, and its `main.rs` (a binary
/// with modules of its own is a crate of its own: a `main.rs` beside a `lib.rs` adds its modules
/// under `main`).
pub fn graph_of(folder: &Path) -> Result<Graph> {
    let mut sources = BTreeMap::new();
    let lib = folder.join("lib.rs");
    let main = folder.join("main.rs");
    if lib.is_file() {
        collect(&lib, folder, Vec::new(), &mut sources)?;
        if main.is_file() {
            collect(&main, folder, vec!["main".to_string()], &mut sources)?;
        }
    } else {
        collect(&main, folder, Vec::new(), &mut sources)?;
    }
    let modules: BTreeSet<Module> = sources.keys().cloned().collect();
    let exports: BTreeMap<Module, BTreeMap<String, Module>> = sources
        .iter()
        .map(|(module, (_, file))| (module.clone(), reexports(module, file, &modules)))
        .collect();
    let mut graph = Graph::default();
    for (module, (path, file)) in &sources {
        let mut paths = Paths::default();
        let mut file = file.clone();
        // A parent's `pub use child::Name` re-exports; it is not a use of the child (the
        // re-exported name leads on to the child wherever it is used, see `resolve`).
        file.items.retain(|item| !matches!(item, syn::Item::Use(u) if !matches!(u.vis, syn::Visibility::Inherited)));
        paths.visit_file_mut(&mut file);
        let mut targets = BTreeSet::new();
        let children = paths.plain.into_iter().filter(|segments| {
            let mut child = module.clone();
            child.push(segments[0].clone());
            modules.contains(&child)
        });
        let relative = children.map(|mut segments| {
            segments.insert(0, "self".to_string());
            segments
        });
        for segments in paths.found.into_iter().chain(relative) {
            let Some(absolute) = absolute(module, &segments) else {
                continue;
            };
            let target = resolve(&absolute, &modules, &exports);
            // A child using what its parent (or the crate's root) holds uses part of itself.
            if !module.starts_with(&target) {
                targets.insert(target);
            }
        }
        graph.files.insert(module.clone(), path.clone());
        graph.edges.insert(module.clone(), targets);
    }
    Ok(graph)
}

/// Reads `file` as `module`, and every module it declares with `mod name;`.
fn collect(
    file: &Path,
    crate_folder: &Path,
    module: Module,
    out: &mut BTreeMap<Module, (PathBuf, syn::File)>,
) -> Result<()> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let parsed = syn::parse_file(&text).with_context(|| format!("parsing {}", file.display()))?;
    // Where this module's children live: `a/` for `a.rs` and `a/mod.rs`; the crate's folder for
    // its roots.
    let children_folder = if module.is_empty() || module == ["main"] {
        crate_folder.to_path_buf()
    } else if file.file_name().is_some_and(|n| n == "mod.rs") {
        file.parent()
            .context("a module file has a folder")?
            .to_path_buf()
    } else {
        file.with_extension("")
    };
    for item in &parsed.items {
        let syn::Item::Mod(declared) = item else {
            continue;
        };
        if declared.content.is_some() {
            continue;
        }
        // `#[path = …]` borrows a file from elsewhere (xtask compiles the console's start keys):
        // it is that file's business, not a module of this crate's tree.
        if declared.attrs.iter().any(|a| a.path().is_ident("path")) {
            continue;
        }
        let name = declared.ident.to_string();
        let flat = children_folder.join(format!("{name}.rs"));
        let nested = children_folder.join(&name).join("mod.rs");
        let child_file = if flat.is_file() { flat } else { nested };
        let mut child = module.clone();
        child.push(name);
        collect(&child_file, crate_folder, child, out)?;
    }
    out.insert(module, (file.to_path_buf(), parsed));
    Ok(())
}

/// Every path in a file that starts with `crate`, `super` or `self`, as its segments.
#[derive(Default)]
struct Paths {
    found: Vec<Vec<String>>,
    /// Paths starting with any other name, outside inline modules.
    plain: Vec<Vec<String>>,
    /// Inside `mod name { … }` blocks: `super` there is the file's own module first.
    inline_depth: usize,
}

impl VisitMut for Paths {
    fn visit_item_mod_mut(&mut self, item: &mut syn::ItemMod) {
        self.inline_depth += 1;
        syn::visit_mut::visit_item_mod_mut(self, item);
        self.inline_depth -= 1;
    }

    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.push(segments);
        syn::visit_mut::visit_path_mut(self, path);
    }

    fn visit_item_use_mut(&mut self, item: &mut syn::ItemUse) {
        let mut prefix = Vec::new();
        self.use_tree(&item.tree, &mut prefix);
    }
}

impl Paths {
    fn push(&mut self, mut segments: Vec<String>) {
        if !matches!(
            segments.first().map(String::as_str),
            Some("crate" | "super" | "self")
        ) {
            // A plain path may start with a child module's name (`bundle::write` in `split`);
            // `graph_of` keeps those whose first segment is one. Inside inline modules such a
            // name would be theirs, not the file's.
            if self.inline_depth == 0 && segments.len() > 1 {
                self.plain.push(segments);
            }
            return;
        }
        // In an inline module, leading `super`s first climb out of the inline modules.
        let mut depth = self.inline_depth;
        while depth > 0 {
            match segments.first().map(String::as_str) {
                Some("super") => {
                    segments.remove(0);
                    depth -= 1;
                    if segments.is_empty() {
                        return;
                    }
                    if segments[0] != "super" {
                        // Back in the file's own module: paths from here are relative to it.
                        segments.insert(0, "self".to_string());
                        break;
                    }
                }
                // `self::x` inside an inline module names the inline module's own items.
                Some("self") => return,
                _ => break,
            }
        }
        self.found.push(segments);
    }

    fn use_tree(&mut self, tree: &syn::UseTree, prefix: &mut Vec<String>) {
        match tree {
            syn::UseTree::Path(path) => {
                prefix.push(path.ident.to_string());
                self.use_tree(&path.tree, prefix);
                prefix.pop();
            }
            syn::UseTree::Name(name) => {
                let mut segments = prefix.clone();
                if name.ident != "self" {
                    segments.push(name.ident.to_string());
                }
                self.push(segments);
            }
            syn::UseTree::Rename(rename) => {
                let mut segments = prefix.clone();
                segments.push(rename.ident.to_string());
                self.push(segments);
            }
            syn::UseTree::Glob(_) => self.push(prefix.clone()),
            syn::UseTree::Group(group) => {
                for tree in &group.items {
                    self.use_tree(tree, prefix);
                }
            }
        }
    }
}

/// A path's segments from the crate's root, or `None` when it climbs above it.
fn absolute(module: &Module, segments: &[String]) -> Option<Vec<String>> {
    let mut base = module.clone();
    let mut rest = segments;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        _ => {}
    }
    while rest.first().map(String::as_str) == Some("super") {
        base.pop()?;
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The deepest module `path` names, following re-exports by name.
fn resolve(
    path: &[String],
    modules: &BTreeSet<Module>,
    exports: &BTreeMap<Module, BTreeMap<String, Module>>,
) -> Module {
    let mut module: Module = Vec::new();
    for segment in path {
        let mut child = module.clone();
        child.push(segment.clone());
        if modules.contains(&child) {
            module = child;
            continue;
        }
        if let Some(origin) = exports.get(&module).and_then(|names| names.get(segment)) {
            if origin != &module {
                return origin.clone();
            }
        }
        break;
    }
    module
}

/// The names `module` re-exports (`pub use a::b::Name`, `pub use a::*` is not followed) and the
/// module each comes from, for the paths that go through the re-export.
fn reexports(
    module: &Module,
    file: &syn::File,
    modules: &BTreeSet<Module>,
) -> BTreeMap<String, Module> {
    let mut names = BTreeMap::new();
    for item in &file.items {
        let syn::Item::Use(item) = item else { continue };
        if matches!(item.vis, syn::Visibility::Inherited) {
            continue;
        }
        let mut found = Vec::new();
        leaves(&item.tree, &mut Vec::new(), &mut found);
        for (name, segments) in found {
            // `pub use child::Name` is relative to this module (2018 paths start at a crate or
            // at `crate`/`self`/`super`; a plain first segment that is a child module counts).
            let relative = match segments.first().map(String::as_str) {
                Some("crate" | "self" | "super") => segments.clone(),
                _ => {
                    let mut with_self = vec!["self".to_string()];
                    with_self.extend(segments.iter().cloned());
                    with_self
                }
            };
            let Some(absolute) = absolute(module, &relative) else {
                continue;
            };
            let origin = resolve(&absolute, modules, &BTreeMap::new());
            if origin != *module && modules.contains(&origin) {
                names.insert(name, origin);
            }
        }
    }
    names
}

/// The names a `use` tree brings in, with their full paths.
fn leaves(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<(String, Vec<String>)>) {
    match tree {
        syn::UseTree::Path(path) => {
            prefix.push(path.ident.to_string());
            leaves(&path.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(name) => {
            let mut path = prefix.clone();
            path.push(name.ident.to_string());
            out.push((name.ident.to_string(), path));
        }
        syn::UseTree::Rename(rename) => {
            let mut path = prefix.clone();
            path.push(rename.ident.to_string());
            out.push((rename.rename.to_string(), path));
        }
        syn::UseTree::Glob(_) => {}
        syn::UseTree::Group(group) => {
            for tree in &group.items {
                leaves(tree, prefix, out);
            }
        }
    }
}

/// The circles of a graph: each strongly connected set of two or more modules (Tarjan's
/// algorithm), as a readable path through it.
pub fn circles(graph: &Graph) -> Vec<Vec<Module>> {
    let nodes: Vec<&Module> = graph.edges.keys().collect();
    let index_of: BTreeMap<&Module, usize> =
        nodes.iter().enumerate().map(|(i, m)| (*m, i)).collect();
    let successors: Vec<Vec<usize>> = nodes
        .iter()
        .map(|m| {
            graph.edges[*m]
                .iter()
                .filter_map(|t| index_of.get(t).copied())
                .collect()
        })
        .collect();
    let mut tarjan = Tarjan {
        successors: &successors,
        index: vec![None; nodes.len()],
        low: vec![0; nodes.len()],
        on_stack: vec![false; nodes.len()],
        stack: Vec::new(),
        next: 0,
        found: Vec::new(),
    };
    for node in 0..nodes.len() {
        if tarjan.index[node].is_none() {
            tarjan.connect(node);
        }
    }
    tarjan
        .found
        .into_iter()
        .map(|set| set.into_iter().map(|i| nodes[i].clone()).collect())
        .collect()
}

struct Tarjan<'a> {
    successors: &'a [Vec<usize>],
    index: Vec<Option<usize>>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    next: usize,
    found: Vec<Vec<usize>>,
}

impl Tarjan<'_> {
    fn connect(&mut self, node: usize) {
        self.index[node] = Some(self.next);
        self.low[node] = self.next;
        self.next += 1;
        self.stack.push(node);
        self.on_stack[node] = true;
        for &next in &self.successors[node] {
            match self.index[next] {
                None => {
                    self.connect(next);
                    self.low[node] = self.low[node].min(self.low[next]);
                }
                Some(index) if self.on_stack[next] => {
                    self.low[node] = self.low[node].min(index);
                }
                Some(_) => {}
            }
        }
        if Some(self.low[node]) == self.index[node] {
            let mut set = Vec::new();
            while let Some(top) = self.stack.pop() {
                self.on_stack[top] = false;
                set.push(top);
                if top == node {
                    break;
                }
            }
            if set.len() > 1 {
                set.sort_unstable();
                self.found.push(set);
            }
        }
    }
}

/// How a circle reads in a failure: each module with the members of the circle it uses.
pub fn describe(crate_name: &str, graph: &Graph, circle: &[Module]) -> String {
    let name = |m: &Module| {
        if m.is_empty() {
            "crate".to_string()
        } else {
            m.join("::")
        }
    };
    let mut text = format!("{crate_name}: a circle of {} modules:\n", circle.len());
    for module in circle {
        let uses: Vec<String> = graph.edges[module]
            .iter()
            .filter(|t| circle.contains(t))
            .map(name)
            .collect();
        text.push_str(&format!(
            "  {} ({}) uses {}\n",
            name(module),
            graph.files[module].display(),
            uses.join(", ")
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::root;

    /// A crate in a temporary folder from `(file, text)` pairs.
    fn crate_of(files: &[(&str, &str)]) -> (PathBuf, Graph) {
        let folder = std::env::temp_dir().join(format!(
            "larder-circles-{}-{}",
            std::process::id(),
            files.len() * 1000 + files.iter().map(|(_, t)| t.len()).sum::<usize>()
        ));
        let _ = std::fs::remove_dir_all(&folder);
        for (file, text) in files {
            let path = folder.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let graph = graph_of(&folder).unwrap();
        (folder, graph)
    }

    #[test]
    fn siblings_that_use_each_other_are_a_circle_and_a_child_using_its_parent_is_not() {
        let (_, graph) = crate_of(&[
            ("lib.rs", "mod a; mod b; mod c; pub use a::Thing;"),
            ("a.rs", "pub struct Thing; fn f() { crate::b::g(); }"),
            ("b.rs", "use super::a::Thing; pub fn g() {}"),
            ("c/mod.rs", "mod d; pub use d::Deep; pub struct Up;"),
            ("c/d.rs", "use super::Up; pub struct Deep;"),
        ]);
        let found = circles(&graph);
        assert_eq!(
            found,
            vec![vec![vec!["a".to_string()], vec!["b".to_string()]]]
        );
    }

    #[test]
    fn a_reexport_leads_to_the_module_the_name_comes_from() {
        // `x` uses `c::Deep`, which `c` re-exports from `c::d`; `c::d` uses `x`: a circle
        // through the re-export, although `c` itself uses nothing.
        let (_, graph) = crate_of(&[
            ("lib.rs", "mod c; mod x;"),
            ("c/mod.rs", "mod d; pub use d::Deep;"),
            ("c/d.rs", "pub struct Deep; fn f() { crate::x::y(); }"),
            ("x.rs", "use crate::c::Deep; pub fn y() {}"),
        ]);
        let found = circles(&graph);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains(&vec!["c".to_string(), "d".to_string()]));
        assert!(found[0].contains(&vec!["x".to_string()]));
    }

    #[test]
    fn a_plain_path_through_a_child_module_is_a_use_of_it() {
        // The shape issue 37 named in xtask: split → split::bundle → start_page → split.
        let (_, graph) = crate_of(&[
            ("main.rs", "mod split; mod start_page;"),
            (
                "split.rs",
                "pub mod bundle; pub const OUT: &str = \"x\"; fn f() { bundle::write(); }",
            ),
            (
                "split/bundle.rs",
                "pub fn write() { let _ = crate::start_page::STARTED; }",
            ),
            (
                "start_page.rs",
                "pub const STARTED: &str = crate::split::OUT;",
            ),
        ]);
        assert_eq!(circles(&graph).len(), 1);
    }

    #[test]
    fn inline_test_modules_belong_to_their_file() {
        let (_, graph) = crate_of(&[
            ("lib.rs", "mod a; mod b;"),
            (
                "a.rs",
                "pub fn f() {} #[cfg(test)] mod tests { use super::f; use super::super::b; }",
            ),
            ("b.rs", "pub fn g() {}"),
        ]);
        assert_eq!(
            graph.edges[&vec!["a".to_string()]],
            BTreeSet::from([vec!["b".to_string()]])
        );
        assert!(circles(&graph).is_empty());
    }

    #[test]
    fn no_module_imports_another_that_imports_it() {
        let mut failures = String::new();
        for (name, folder) in CRATES {
            let graph = graph_of(&root().join(folder)).unwrap();
            assert!(
                graph.files.len() > 1 || name == "larder-search",
                "{name}: no modules found"
            );
            for circle in circles(&graph) {
                failures.push_str(&describe(name, &graph, &circle));
            }
        }
        assert!(failures.is_empty(), "import circles:\n{failures}");
    }
}
