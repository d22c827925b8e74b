//! Short names for what a module imports from its wasm-bindgen glue.
//!
//! wasm-bindgen names each function the glue hands the module `__wbg_<what>_<16 hex digits>`,
//! and spells each name twice: in the module's import section and as a key of the glue's import
//! object. The hex digits do not compress. Renamed to `$0`, `$1`, … in both files, the start-up
//! module and its glue (22 KB of the 27 that came before "Sign in" works) are 2.3 KB brotli
//! smaller, and the console's main module and glue 6.6 KB (issue 24).
//!
//! The rename is byte-exact where it matters: every other section is copied as it was, imports
//! from anywhere else (the split loader's) keep their names, and the build stops if a renamed
//! name is not in the glue, or a short name already is.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use anyhow::{bail, Context, Result};
use wasm_encoder::reencode::{Reencode, RoundtripReencoder};
use wasm_encoder::{ImportSection, RawSection};
use wasmparser::{Parser, Payload};

/// The names the glue's hash makes long: `__wbg_` and a name, then `_` and 16 hex digits.
fn is_hashed(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("__wbg_") else {
        return false;
    };
    // In bytes: a name is any UTF-8, and 17 bytes from its end need not be a character's start.
    let Some(split) = rest.len().checked_sub(17) else {
        return false;
    };
    let hash = &rest.as_bytes()[split..];
    hash[0] == b'_' && hash[1..].iter().all(u8::is_ascii_hexdigit)
}

fn short_name(index: usize) -> String {
    format!("${index:x}")
}

/// Renames, in place, the hashed imports of `<dir>/<name>_bg.wasm` from its glue
/// (`./<name>_bg.js`) and the keys that provide them in `<dir>/<name>.js`.
pub fn shorten_in(dir: &Path, name: &str) -> Result<usize> {
    let wasm_path = dir.join(format!("{name}_bg.wasm"));
    let glue_path = dir.join(format!("{name}.js"));
    let wasm =
        std::fs::read(&wasm_path).with_context(|| format!("reading {}", wasm_path.display()))?;
    let glue = std::fs::read_to_string(&glue_path)?;
    let (wasm, glue, renamed) = shorten(&wasm, &glue, &format!("./{name}_bg.js"))
        .with_context(|| format!("shortening the glue's names in {}", wasm_path.display()))?;
    std::fs::write(&wasm_path, wasm)?;
    std::fs::write(&glue_path, glue)?;
    Ok(renamed)
}

/// `wasm` and `glue` with every hashed import from `glue_module` renamed; and how many were.
pub fn shorten(wasm: &[u8], glue: &str, glue_module: &str) -> Result<(Vec<u8>, String, usize)> {
    let mut names: HashMap<String, String> = HashMap::new();
    let mut module = wasm_encoder::Module::new();
    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload?;
        if let Payload::ImportSection(reader) = &payload {
            let mut imports = ImportSection::new();
            for import in reader.clone().into_imports() {
                let import = import?;
                let ty = RoundtripReencoder.entity_type(import.ty)?;
                let name = if import.module == glue_module && is_hashed(import.name) {
                    let next = short_name(names.len());
                    names.entry(import.name.to_owned()).or_insert(next).clone()
                } else {
                    import.name.to_owned()
                };
                imports.import(import.module, &name, ty);
            }
            module.section(&imports);
        } else if let Some((id, range)) = payload.as_section() {
            let range = usize::try_from(range.start)?..usize::try_from(range.end)?;
            module.section(&RawSection {
                id,
                data: &wasm[range],
            });
        }
    }
    let renamed = names.len();
    let glue = rename_identifiers(glue, &names)?;
    let wasm = module.finish();
    wasmparser::Validator::new_with_features(wasmparser::WasmFeatures::all())
        .validate_all(&wasm)
        .context("the renamed module does not validate")?;
    Ok((wasm, glue, renamed))
}

fn is_identifier_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// `glue` with each whole identifier that `names` holds replaced by its new name. Fails if a
/// new name is already in `glue`, or an old one is not (the module would ask the glue for a
/// function it does not have).
fn rename_identifiers(glue: &str, names: &HashMap<String, String>) -> Result<String> {
    let taken: HashSet<&str> = names.values().map(String::as_str).collect();
    let mut renamed: HashSet<&str> = HashSet::new();
    let bytes = glue.as_bytes();
    let mut out = String::with_capacity(glue.len());
    let mut used = 0;
    let mut at = 0;
    while at < bytes.len() {
        if !is_identifier_byte(bytes[at]) {
            at += 1;
            continue;
        }
        let start = at;
        while at < bytes.len() && is_identifier_byte(bytes[at]) {
            at += 1;
        }
        let identifier = &glue[start..at];
        if taken.contains(identifier) {
            bail!("the glue already holds `{identifier}`, a short name the rename would give");
        }
        if let Some((old, new)) = names.get_key_value(identifier) {
            out.push_str(&glue[used..start]);
            out.push_str(new);
            used = at;
            renamed.insert(old);
        }
    }
    out.push_str(&glue[used..]);
    if let Some(missing) = names.keys().find(|old| !renamed.contains(old.as_str())) {
        bail!("the module imports `{missing}`, which its glue does not name");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_encoder::{
        CodeSection, EntityType, ExportKind, ExportSection, Function, FunctionSection, MemoryType,
        Module, TypeSection,
    };

    const ALERT: &str = "__wbg_alert_0123456789abcdef";
    const LOG: &str = "__wbg_log_fedcba9876543210";

    /// A module importing two glue functions (one twice), a memory, and a split loader's
    /// function, with a body that calls the first import.
    fn module() -> Vec<u8> {
        let mut module = Module::new();
        let mut types = TypeSection::new();
        types.ty().function([], []);
        module.section(&types);
        let mut imports = ImportSection::new();
        imports.import("./x_bg.js", ALERT, EntityType::Function(0));
        imports.import("./x_bg.js", LOG, EntityType::Function(0));
        imports.import("./x_bg.js", ALERT, EntityType::Function(0));
        imports.import(
            "./x_bg.js",
            "__wbindgen_init_externref_table",
            EntityType::Function(0),
        );
        imports.import(
            "./__wasm_split.js",
            "__wbg_load_0123456789abcdef",
            EntityType::Function(0),
        );
        let memory = MemoryType {
            minimum: 1,
            maximum: None,
            memory64: false,
            shared: false,
            page_size_log2: None,
        };
        imports.import("./x_bg.js", "memory", EntityType::Memory(memory));
        module.section(&imports);
        let mut functions = FunctionSection::new();
        functions.function(0);
        module.section(&functions);
        let mut exports = ExportSection::new();
        exports.export("run", ExportKind::Func, 5);
        module.section(&exports);
        let mut code = CodeSection::new();
        let mut body = Function::new([]);
        body.instructions().call(0).end();
        code.function(&body);
        module.section(&code);
        module.finish()
    }

    fn imports(wasm: &[u8]) -> Vec<(String, String)> {
        let mut found = Vec::new();
        for payload in Parser::new(0).parse_all(wasm) {
            if let Payload::ImportSection(reader) = payload.unwrap() {
                for import in reader.into_imports() {
                    let import = import.unwrap();
                    found.push((import.module.to_owned(), import.name.to_owned()));
                }
            }
        }
        found
    }

    fn glue() -> String {
        format!(
            "const imports = {{ {ALERT}: function() {{}}, {LOG}: function() {{}}, \
             __wbindgen_init_externref_table() {{}} }};\n\
             // {ALERT}x stays: another identifier.\n"
        )
    }

    #[test]
    fn hashed_names_are_the_glues_own() {
        assert!(is_hashed(ALERT));
        assert!(is_hashed("__wbg_set_body_0000000000000000"));
        assert!(!is_hashed("__wbindgen_init_externref_table"));
        assert!(!is_hashed("__wbg_init"));
        assert!(!is_hashed("__wbg_alert_0123456789abcdeg"));
        assert!(!is_hashed("__wbg_alert0123456789abcdef0"));
        assert!(
            !is_hashed("__wbg_é0123456789abcdef"),
            "a name ending mid-character"
        );
    }

    #[test]
    fn the_glues_imports_get_short_names_in_both_files() {
        let before = module();
        let (wasm, glue, renamed) = shorten(&before, &glue(), "./x_bg.js").unwrap();
        assert_eq!(renamed, 2, "two distinct hashed names");
        assert!(wasm.len() < before.len());
        let after = imports(&wasm);
        let want: Vec<(String, String)> = [
            ("./x_bg.js", "$0"),
            ("./x_bg.js", "$1"),
            ("./x_bg.js", "$0"),
            ("./x_bg.js", "__wbindgen_init_externref_table"),
            ("./__wasm_split.js", "__wbg_load_0123456789abcdef"),
            ("./x_bg.js", "memory"),
        ]
        .iter()
        .map(|(m, n)| (m.to_string(), n.to_string()))
        .collect();
        assert_eq!(after, want);
        assert_eq!(
            glue,
            format!(
                "const imports = {{ $0: function() {{}}, $1: function() {{}}, \
                 __wbindgen_init_externref_table() {{}} }};\n\
                 // {ALERT}x stays: another identifier.\n"
            )
        );
        // Everything but the import section is as it was: the body still calls import 0.
        let sections = |wasm: &[u8]| -> Vec<(u8, Vec<u8>)> {
            Parser::new(0)
                .parse_all(wasm)
                .filter_map(|p| p.unwrap().as_section())
                .filter(|(id, _)| *id != 2)
                .map(|(id, r)| (id, wasm[r.start as usize..r.end as usize].to_vec()))
                .collect()
        };
        assert_eq!(sections(&wasm), sections(&before));
    }

    #[test]
    fn a_name_the_glue_lacks_or_already_holds_stops_the_build() {
        let lacking = glue().replace(LOG, "__wbg_other_fedcba9876543210");
        let error = shorten(&module(), &lacking, "./x_bg.js").unwrap_err();
        assert!(format!("{error:#}").contains(LOG), "{error:#}");
        let holding = format!("{}const $1 = 1;\n", glue());
        let error = shorten(&module(), &holding, "./x_bg.js").unwrap_err();
        assert!(format!("{error:#}").contains("`$1`"), "{error:#}");
    }

    #[test]
    fn a_module_of_another_glue_is_left_as_it_was() {
        let before = module();
        let (wasm, glue, renamed) = shorten(&before, &glue(), "./y_bg.js").unwrap();
        assert_eq!(renamed, 0);
        assert_eq!(imports(&wasm), imports(&before));
        assert_eq!(glue, super::tests::glue());
    }
}
