//! `cargo xtask dist`: the static console for any CDN, under a strict Content-Security-Policy.
//!
//! trunk writes hashed asset names and an `index.html` whose loader is an inline module script;
//! this moves that loader into a hashed file (`boot-<hash>.js`) so the policy needs no inline
//! script, adds the policy as a `<meta>` tag, a `404.html` copy of `index.html` for hosts that
//! serve it on unknown paths, and a `config.example.json` template.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::process::{command, exec, root};

/// The policy written into `index.html`. `connect-src 'self'` covers the wasm module, config.json
/// and an API on the page's own origin; operators add their API origins (see README, Hosting).
/// No `'unsafe-inline'` anywhere: the console sizes elements through the CSS object model
/// (Leptos `style:height=`, which the policy does not govern), never with `style` attributes,
/// and the journeys fail on any violation.
pub fn csp() -> String {
    // The same policy `larder-server --static` sends as a header (which adds frame-ancestors).
    larder_contract::hosting::policy(&[], false)
}

/// The `config.json` template: the format of src/config.rs, every key optional.
const CONFIG_EXAMPLE: &str = r#"{
  "data_api_base": "https://data.example.org",
  "system_api_base": "https://system.example.org",
  "timeout_seconds": 30
}
"#;

/// `cargo xtask dist [--public-url /sub/path/] [--dist DIR]`.
pub fn run(args: &[String]) -> Result<()> {
    let mut public_url = None;
    let mut dist = "dist".to_string();
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = rest
            .next()
            .with_context(|| format!("{flag} takes a value"))?;
        match flag.as_str() {
            "--public-url" => public_url = Some(normalise_public_url(value)),
            "--dist" => dist = value.clone(),
            _ => bail!("usage: cargo xtask dist [--public-url /sub/path/] [--dist DIR]"),
        }
    }
    crate::setup::run()?;
    let dir = build(&dist, public_url.as_deref())?;
    eprintln!("dist: the static console is in {}", dir.display());
    for entry in list(&dir)? {
        eprintln!("  {:>9}  {}", entry.1, entry.0);
    }
    Ok(())
}

/// `/console` or `console/` becomes `/console/`; `/` stays.
pub fn normalise_public_url(url: &str) -> String {
    let trimmed = url.trim_matches('/');
    if trimmed.is_empty() {
        "/".to_string()
    } else {
        format!("/{trimmed}/")
    }
}

/// Builds the release console into `dist` (relative to the root) and post-processes it.
pub fn build(dist: &str, public_url: Option<&str>) -> Result<PathBuf> {
    trunk_build(dist, public_url)?;
    let dir = root().join(dist);
    finish(&dir)?;
    Ok(dir)
}

/// The steps after trunk: external loader, policy, 404.html, config template.
pub fn finish(dir: &Path) -> Result<()> {
    let index_path = dir.join("index.html");
    let html = std::fs::read_to_string(&index_path)
        .with_context(|| format!("reading {}", index_path.display()))?;
    let (html, boot_name, boot) = externalise_loader(&html)?;
    // Old loaders of earlier builds into the same folder go; trunk already cleans its own files.
    for entry in std::fs::read_dir(dir)? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if name.starts_with("boot-") && name.ends_with(".js") && name != boot_name {
            std::fs::remove_file(dir.join(&name))?;
        }
    }
    std::fs::write(dir.join(&boot_name), boot)?;
    let html = add_policy(&html)?;
    if html.contains("<script>") || html.contains("<script type=\"module\">") {
        bail!("index.html still has an inline script after moving the loader out");
    }
    std::fs::write(&index_path, &html)?;
    std::fs::write(dir.join("404.html"), &html)?;
    std::fs::write(dir.join("config.example.json"), CONFIG_EXAMPLE)?;
    Ok(())
}

/// Replaces trunk's inline `<script type="module">` with a `src` to a hashed file; returns the
/// new page, the file's name and its content.
fn externalise_loader(html: &str) -> Result<(String, String, String)> {
    const OPEN: &str = "<script type=\"module\">";
    let start = html
        .find(OPEN)
        .context("index.html has no inline module loader (was it already processed?)")?;
    let body_start = start + OPEN.len();
    let end = body_start
        + html[body_start..]
            .find("</script>")
            .context("the loader script is not closed")?;
    let boot = format!("{}\n", html[body_start..end].trim());
    let name = format!("boot-{:016x}.js", fnv1a(boot.as_bytes()));
    let base = base_href(html).unwrap_or("/");
    let tag = format!("<script type=\"module\" src=\"{base}{name}\"></script>");
    let page = format!(
        "{}{tag}{}",
        &html[..start],
        &html[end + "</script>".len()..]
    );
    Ok((page, name, boot))
}

/// The `href` of trunk's `<base>` (the public URL).
fn base_href(html: &str) -> Option<&str> {
    let at = html.find("<base href=\"")? + "<base href=\"".len();
    let len = html[at..].find('"')?;
    Some(&html[at..at + len])
}

/// Puts the policy right after `<meta charset>`, before anything it governs.
fn add_policy(html: &str) -> Result<String> {
    let meta = format!(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
        csp()
    );
    let charset = html
        .find("<meta charset")
        .context("index.html has no <meta charset>")?;
    let after = charset + html[charset..].find('>').context("unclosed meta")? + 1;
    Ok(format!("{}\n    {meta}{}", &html[..after], &html[after..]))
}

/// 64-bit FNV-1a: enough to give each loader its own cacheable name.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The files of a dist folder with their sizes, sorted by name.
pub fn list(dir: &Path) -> Result<Vec<(String, u64)>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_file() {
            files.push((
                entry.file_name().to_string_lossy().into_owned(),
                entry.metadata()?.len(),
            ));
        }
    }
    files.sort();
    Ok(files)
}

/// `trunk build --release` into `dist`, optionally for hosting under `public_url`.
fn trunk_build(dist: &str, public_url: Option<&str>) -> Result<()> {
    let mut args = vec!["build", "--release", "--offline", "--dist", dist];
    if let Some(url) = public_url {
        args.extend(["--public-url", url]);
    }
    exec(&mut command("trunk", &args))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRUNK: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
    <meta charset="utf-8">
    <title>Larder</title>
    <base href="/console/">
<script type="module">
import init, * as bindings from '/console/larder-1.js';
const wasm = await init({ module_or_path: '/console/larder-1_bg.wasm' });
</script>
    <link rel="stylesheet" href="/console/main-2.css"/>
</head>
<body></body>
</html>"#;

    #[test]
    fn the_loader_moves_out_and_the_policy_comes_first() {
        let (page, name, boot) = externalise_loader(TRUNK).unwrap();
        assert!(name.starts_with("boot-") && name.len() == "boot-.js".len() + 16);
        assert!(boot.starts_with("import init") && boot.contains("await init"));
        assert!(page.contains(&format!(
            "<script type=\"module\" src=\"/console/{name}\"></script>"
        )));
        let page = add_policy(&page).unwrap();
        let policy = page.find("Content-Security-Policy").unwrap();
        assert!(policy < page.find("<script").unwrap());
        assert!(policy < page.find("<link").unwrap());
        assert!(!page.contains("<script type=\"module\">"));
    }

    #[test]
    fn public_urls_are_normalised() {
        assert_eq!(normalise_public_url("/"), "/");
        assert_eq!(normalise_public_url("console"), "/console/");
        assert_eq!(normalise_public_url("/a/b"), "/a/b/");
    }
}
