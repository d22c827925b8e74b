//! The start-up set inside `index.html` (issue 24): "Sign in" works after one round trip, the
//! page's own, instead of two (the page, then its start-up files).
//!
//! The built page carries the sign-in form's style sheet as a `<style>`, the start-up module's
//! glue and the call that starts it as one inline module script, and two data blocks at the end
//! of the body: the start-up catalog (JSON) and the module's bytes (a byte b as the character
//! U+0100+b: 18.5 KB brotli for 17.4 KB of brotli'd bytes, where base64 costs 23.2 KB). The
//! policy allows the script and the style by their sha256 hashes and nothing else inline; data
//! blocks are never run, so it does not govern them. `boot.js` (the console's loader) starts the
//! module from its files when the inline script did not run: a policy header without this
//! build's hashes refuses it, and the console then still works, a round trip later.

use std::path::Path;

use crate::language::START_CATALOG_IN_PAGE;
use anyhow::{bail, Context, Result};
use base64::Engine as _;
use larder_contract::hosting::Inline;
use sha2::{Digest, Sha256};

use super::{STARTED, START_OUT_NAME};

/// The id of the data block with the start-up module's bytes.
const MODULE_IN_PAGE: &str = "start-module";

/// What the page carries: read from a build's folder and its start-up catalog.
pub struct StartSet {
    pub style: String,
    pub glue: String,
    pub module: Vec<u8>,
    pub catalog: String,
}

impl StartSet {
    /// `start.css`, `start.js` and `start_bg.wasm` of the built `folder`, with the start-up
    /// catalog `dist` made.
    pub fn read(folder: &Path, catalog: String) -> Result<StartSet> {
        let name = START_OUT_NAME;
        let read = |file: &str| {
            let path = folder.join(file);
            std::fs::read(&path).with_context(|| format!("reading {}", path.display()))
        };
        Ok(StartSet {
            style: String::from_utf8(read(&format!("{name}.css"))?)?,
            glue: String::from_utf8(read(&format!("{name}.js"))?)?,
            module: read(&format!("{name}_bg.wasm"))?,
            catalog,
        })
    }
}

/// The page's parts: the tags for its head, the data blocks for the end of its body, and the
/// hashes its policy must allow.
pub struct Parts {
    pub head: Vec<String>,
    pub body_end: String,
    pub inline: Inline,
}

/// The parts for a build whose files are under `at` (`/console/larder-<hash>`) and whose
/// `config.json` is under `base`.
pub fn parts(set: &StartSet, base: &str, at: &str) -> Result<Parts> {
    if set.style.contains("</style") {
        bail!("start.css holds `</style`: it cannot go inside the page");
    }
    let script = inline_script(&set.glue, at)?;
    let head = vec![
        format!("<style>{}</style>", set.style),
        // The start-up module reads config.json before it enables "Sign in": asked for as the
        // page's head is read, it comes while the rest of the page does.
        format!("<link rel=\"preload\" href=\"{base}config.json\" as=\"fetch\" crossorigin>"),
        format!("<script type=\"module\">{script}</script>"),
        // Runs after the inline script (module scripts run in the page's order).
        format!("<script type=\"module\" src=\"{at}/boot.js\"></script>"),
    ];
    // JSON has `<` only inside strings, where `\u003c` means the same: no `</script>` can
    // end the block early.
    let catalog = set.catalog.trim().replace('<', "\\u003c");
    let bytes: String = set
        .module
        .iter()
        .map(|b| char::from_u32(0x100 + u32::from(*b)).expect("U+0100 to U+01FF are characters"))
        .collect();
    let body_end = format!(
        "<script type=\"application/json\" id=\"{START_CATALOG_IN_PAGE}\">{catalog}</script>\n\
         <script type=\"application/octet-stream\" id=\"{MODULE_IN_PAGE}\">{bytes}</script>"
    );
    Ok(Parts {
        head,
        body_end,
        inline: Inline {
            script: vec![sha256(&script)],
            style: vec![sha256(&set.style)],
        },
    })
}

/// The glue, then the module compiled from the page's bytes and started with the console's
/// loader from `boot.js` (the page's next script, so already there when "Sign in" works).
fn inline_script(glue: &str, at: &str) -> Result<String> {
    if glue.contains("</script") || glue.contains("<!--") {
        bail!("start.js holds `</script` or `<!--`: it cannot go inside the page");
    }
    let init = exported(glue, "initSync").context("the start-up glue exports no initSync")?;
    let run = exported(glue, "run").context("the start-up glue exports no run")?;
    Ok(format!(
        "{glue}\n{{const b=document.getElementById(\"{MODULE_IN_PAGE}\").textContent,\
         u=new Uint8Array(b.length);for(let i=0;i<b.length;i++)u[i]=b.charCodeAt(i)-256;\
         {init}({{module:u}});globalThis.{STARTED}=1;\
         {run}(s=>import(\"{at}/boot.js\").then(m=>m.loadConsole(s)),\
         c=>import(\"{at}/boot.js\").then(m=>m.startProvider(c)))}}"
    ))
}

/// The local name under which a module exports `name`: `export function name(` or `local as
/// name` (or `name`) in an `export{…}` list, as terser writes them.
fn exported(glue: &str, name: &str) -> Option<String> {
    if glue.contains(&format!("export function {name}(")) {
        return Some(name.to_string());
    }
    let mut rest = glue;
    while let Some(at) = rest.find("export{").or_else(|| rest.find("export {")) {
        let list = &rest[at..];
        let open = list.find('{')? + 1;
        let close = list.find('}')?;
        for item in list[open..close].split(',') {
            let words: Vec<&str> = item.split_whitespace().collect();
            match words[..] {
                [local] if local == name => return Some(local.to_string()),
                [local, "as", public] if public == name => return Some(local.to_string()),
                _ => {}
            }
        }
        rest = &list[close..];
    }
    None
}

/// A policy source for `text`: `'sha256-<base64 of its UTF-8's digest>'`.
fn sha256(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set() -> StartSet {
        StartSet {
            style: "form{color:red}".into(),
            glue: "let w;function n(e){}async function i(e){}function run(e){}\
                   export{n as initSync,run,i as default};"
                .into(),
            module: vec![0, 97, 115, 109, 255, 60, 47],
            catalog: "{\"el\":{\"Sign in\":\"</script><b>\"}}\n".into(),
        }
    }

    fn between<'a>(text: &'a str, open: &str, close: &str) -> &'a str {
        let start = text.find(open).unwrap() + open.len();
        &text[start..start + text[start..].find(close).unwrap()]
    }

    #[test]
    fn the_policy_allows_exactly_the_inline_script_and_style() {
        let parts = parts(&set(), "/console/", "/console/larder-0123").unwrap();
        let head = parts.head.join("\n");
        let script = between(&head, "<script type=\"module\">", "</script>");
        assert!(script.starts_with("let w;"));
        assert!(script.contains("n({module:u});globalThis.larderStartedInPage=1;run(s=>import(\"/console/larder-0123/boot.js\")"));
        // A console with a provider: the start goes to the module built with its sign-in.
        assert!(script
            .contains(",c=>import(\"/console/larder-0123/boot.js\").then(m=>m.startProvider(c)))"));
        assert_eq!(parts.inline.script, vec![sha256(script)]);
        assert_eq!(parts.inline.style, vec![sha256("form{color:red}")]);
        // The digest of the empty text, as every CSP implementation spells it.
        assert_eq!(
            sha256(""),
            "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"
        );
        assert!(
            head.contains("<script type=\"module\" src=\"/console/larder-0123/boot.js\"></script>")
        );
        assert!(head.contains("href=\"/console/config.json\" as=\"fetch\""));
    }

    #[test]
    fn the_data_blocks_cannot_end_early_and_give_the_bytes_back() {
        let parts = parts(&set(), "/", "/larder-0123").unwrap();
        let catalog = between(&parts.body_end, "id=\"start-catalog\">", "</script>");
        let read: serde_json::Value = serde_json::from_str(catalog).unwrap();
        assert_eq!(read["el"]["Sign in"], "</script><b>");
        let bytes = between(&parts.body_end, "id=\"start-module\">", "</script>");
        // The page's decoding: each character's code less 256.
        let decoded: Vec<u8> = bytes.chars().map(|c| (c as u32 - 256) as u8).collect();
        assert_eq!(decoded, set().module);
        assert!(!bytes.contains('<'));
    }

    #[test]
    fn a_glue_the_page_cannot_carry_stops_the_build() {
        let mut unusual = set();
        unusual.glue = "export{n as initSync};".into();
        let error = parts(&unusual, "/", "/x").err().unwrap().to_string();
        assert!(error.contains("no run"), "{error}");
        unusual.glue = "const s=\"</script>\";export{n as initSync,run};".into();
        assert!(parts(&unusual, "/", "/x").is_err());
        let mut styled = set();
        styled.style = "a::after{content:\"</style>\"}".into();
        assert!(parts(&styled, "/", "/x").is_err());
        assert_eq!(
            exported("export function run(e){}export{o as initSync}", "run").as_deref(),
            Some("run")
        );
    }
}
