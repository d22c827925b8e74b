//! `cargo xtask serve`: the release console served by larder-server with demo data.

use anyhow::{bail, Context, Result};

use crate::process::{command, exec, root};

/// Builds and serves until Ctrl-C.
pub fn run(args: &[String]) -> Result<()> {
    let port = match args {
        [] => 8080,
        [flag, port] if flag == "--port" => port.parse().context("--port takes a number")?,
        _ => bail!("usage: cargo xtask serve [--port N]"),
    };
    crate::setup::run()?;
    // The same build an operator hosts: external loader, strict policy, 404.html.
    crate::dist::build("dist", None)?;
    exec(&mut command(
        "cargo",
        &["build", "--package", "larder-server", "--profile", "server"],
    ))?;
    let server = root().join("target/server/larder-server");
    let addr = format!("127.0.0.1:{port}");
    let db = root().join("larder.db");
    eprintln!(
        "serving the console with demo data at http://{addr}/ (Ctrl-C stops; data persists in {})",
        db.display()
    );
    exec(&mut command(
        server.to_str().context("path")?,
        &[
            "--addr",
            &addr,
            "--static",
            "dist",
            "--demo",
            "--db",
            db.to_str().context("path")?,
        ],
    ))
}
