//! Running commands with the project's tools on PATH, and larder-server as a child process.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// PATH with the npm tools (wasm-opt, playwright) and cargo's bin folder in front.
pub fn tool_path() -> String {
    let mut parts = vec![root().join("node_modules/.bin").display().to_string()];
    if let Some(home) = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
    {
        parts.push(home.join("bin").display().to_string());
    }
    parts.push(std::env::var("PATH").unwrap_or_default());
    parts.join(":")
}

/// A command run from the workspace root with the tool PATH.
pub fn command(program: &str, args: &[&str]) -> Command {
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(root())
        .env("PATH", tool_path());
    command
}

/// Runs a command, echoing it, and fails on a non-zero exit.
pub fn exec(command: &mut Command) -> Result<()> {
    eprintln!("$ {}", describe(command));
    let status = command
        .status()
        .with_context(|| format!("could not start {}", describe(command)))?;
    if !status.success() {
        bail!("`{}` failed ({status})", describe(command));
    }
    Ok(())
}

/// Runs a command and returns its trimmed stdout, or `None` if it cannot run or fails.
pub fn output(program: &str, args: &[&str]) -> Option<String> {
    let out = command(program, args).stderr(Stdio::null()).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn describe(command: &Command) -> String {
    let mut text = command.get_program().to_string_lossy().into_owned();
    for arg in command.get_args() {
        text.push(' ');
        text.push_str(&arg.to_string_lossy());
    }
    text
}

/// A larder-server child process, killed when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
}

impl Server {
    /// Starts `binary` with `args` and waits for its "listening on" line.
    pub fn start(binary: &Path, args: &[&str]) -> Result<Server> {
        eprintln!("$ {} {}", binary.display(), args.join(" "));
        let mut child = Command::new(binary)
            .args(args)
            .current_dir(root())
            .env("RUST_LOG", "larder_server=warn,tower_http=warn")
            .stdout(Stdio::piped())
            .spawn()
            .with_context(|| format!("could not start {}", binary.display()))?;
        let stdout = child.stdout.take().context("no stdout")?;
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if !sent {
                    if let Some(url) = line.strip_prefix("larder-server listening on ") {
                        let _ = sender.send(url.trim().to_string());
                        sent = true;
                    }
                }
            }
        });
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok(url) = receiver.recv_timeout(Duration::from_millis(200)) {
                eprintln!("larder-server is up at {url}");
                return Ok(Server { child, url });
            }
            if let Some(status) = child.try_wait()? {
                bail!("larder-server exited before listening ({status})");
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                bail!("larder-server did not start within 60 s");
            }
        }
    }
}

impl Server {
    /// The server's process id (the load's memory soak reads its resident memory).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
