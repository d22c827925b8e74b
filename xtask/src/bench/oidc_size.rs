//! `cargo xtask bench --only oidc-size`: what signing in at the identity provider weighs in a
//! wasm module, written by hand (`larder_start::oidc`, issue 42) and with the well-kept
//! libraries (`openidconnect`, `oauth2` alone). The probe (`xtask/probes/oidc-size`) compiles
//! the same flow each way behind one exported function whose inputs are runtime data, so
//! nothing of it is dropped as dead code: the discovery document, the authorization URL with
//! PKCE, the callback's check, the code exchange's request and answer, the ID token's checks.
//! Each is built as the console's release profile builds (opt-level z, LTO), run through
//! wasm-bindgen where it uses it (the libraries draw random values through `getrandom`'s js
//! feature) and `wasm-opt -Oz`, then compressed as `cargo xtask dist` measures (gzip -9,
//! brotli 11). Sizes do not vary between runs: one sample each.

use anyhow::{Context, Result};

use super::Figure;
use crate::process::{command, exec, root};

/// The probe's features, and whether the variant links wasm-bindgen.
const VARIANTS: [(&str, bool); 3] = [("hand", false), ("oauth2", true), ("openidconnect", true)];

/// The probe built one way: its optimised module's bytes.
fn build(variant: &str, bindgen: bool) -> Result<Vec<u8>> {
    let probe = root().join("xtask/probes/oidc-size");
    let target = root().join(format!("target/probes/oidc-size-{variant}"));
    let target_str = target.to_str().context("path")?;
    exec(
        command(
            "cargo",
            &[
                "build",
                "--release",
                "--target",
                "wasm32-unknown-unknown",
                "--features",
                variant,
                "--target-dir",
                target_str,
            ],
        )
        .current_dir(&probe),
    )?;
    let built = target.join("wasm32-unknown-unknown/release/oidc_size_probe.wasm");
    let out = target.join("measured");
    std::fs::create_dir_all(&out)?;
    let module = if bindgen {
        let out_str = out.to_str().context("path")?;
        let built_str = built.to_str().context("path")?;
        exec(&mut command(
            "wasm-bindgen",
            &["--target", "web", "--out-dir", out_str, built_str],
        ))?;
        out.join("oidc_size_probe_bg.wasm")
    } else {
        let copy = out.join("oidc_size_probe.wasm");
        std::fs::copy(&built, &copy)?;
        copy
    };
    crate::split::optimise(&module)?;
    Ok(std::fs::read(&module)?)
}

/// The three variants' sizes (bytes: module, gzip, brotli), and each library's increase over
/// the hand-written core.
pub fn measure() -> Result<Vec<Figure>> {
    let mut figures = Vec::new();
    let mut hand_gzip = None;
    for (variant, bindgen) in VARIANTS {
        eprintln!("\n==> the OpenID Connect probe, {variant}");
        let module = build(variant, bindgen)?;
        let gzip = crate::dist::gzip(&module)?.len() as f64;
        let brotli = crate::dist::brotli(&module)?.len() as f64;
        let name = |what: &str| format!("OpenID Connect sign-in in wasm, {variant}: {what}");
        figures.push(Figure::new(
            name("module"),
            "bytes",
            vec![module.len() as f64],
        ));
        let mut gzipped = Figure::new(name("gzip -9"), "bytes", vec![gzip]);
        match hand_gzip {
            None => hand_gzip = Some(gzip),
            Some(hand) => {
                gzipped.ratio = Some((gzip / hand, "the hand-written core, gzip".into()));
                gzipped.note = format!("{:+.0} bytes over the hand-written core", gzip - hand);
            }
        }
        figures.push(gzipped);
        figures.push(Figure::new(name("brotli"), "bytes", vec![brotli]));
    }
    Ok(figures)
}
