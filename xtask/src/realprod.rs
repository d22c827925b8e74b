//! Production's own households service for the journeys: a realprod directory (named by
//! `cargo xtask test --realprod DIR`, which CI passes; for `cargo xtask realprod`, by `--realprod
//! DIR`, `LARDER_REALPROD`, or `../shared/realprod` beside the repository) starts wisefood-api,
//! unmodified, on a throwaway PostgreSQL with an identity-server stand-in, and its `proxy.py`
//! serves the console and `/api/v1/*` from one origin. Both stop when dropped, also when a
//! journey fails.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::files::copy_tree;
use crate::process::root;

/// How long an access token of the stand-in lives, in seconds: short, so the console renews its
/// session (it signs in again before expiry; production has no refresh route) within a journey.
/// The client renews 10 s before expiry, so a session lasts 10 s between sign-ins.
pub const ACCESS_TTL_SECS: u32 = 20;

/// Where `cargo xtask realprod` finds the realprod directory: `named` (its `--realprod DIR`),
/// else `LARDER_REALPROD`, else `../shared/realprod` from the root. `cargo xtask test` uses only
/// its own `--realprod DIR`: a clone with nothing beside it runs without this stage.
pub fn directory(named: Option<&Path>) -> PathBuf {
    named
        .map(Path::to_path_buf)
        .or_else(|| std::env::var_os("LARDER_REALPROD").map(PathBuf::from))
        .unwrap_or_else(|| root().join("../shared/realprod"))
}

/// A running stack: its API's address, and the script that stops exactly what it started.
pub struct Stack {
    /// `http://127.0.0.1:PORT` of wisefood-api.
    pub base: String,
    /// The realprod directory (its `start.sh` and `proxy.py`).
    pub dir: PathBuf,
    state: PathBuf,
    start_script: PathBuf,
}

impl Stack {
    /// Starts a fresh stack (stopping a leftover one of this checkout first, so every run begins
    /// with no households); fails with what to do when the directory or the stack is missing.
    pub fn start(dir: &Path) -> Result<Stack> {
        let dir = dir.to_path_buf();
        let start_script = dir.join("start.sh");
        if !start_script.is_file() {
            bail!(
                "production's households service was asked for, but {} does not exist: name \
                 the realprod directory with --realprod DIR (or LARDER_REALPROD for `cargo \
                 xtask realprod`). Asked for, this step never skips.",
                start_script.display()
            );
        }
        // Per checkout, so parallel clones and a developer's own stack do not meet.
        let state = root().join("target/realprod.state");
        let mut stack = Stack {
            base: String::new(),
            dir,
            state,
            start_script,
        };
        stack.stop();
        let started = Instant::now();
        eprintln!(
            "$ bash {} (STUB_ACCESS_TTL={ACCESS_TTL_SECS})",
            stack.start_script.display()
        );
        let out = Command::new("bash")
            .arg(&stack.start_script)
            .env("REALPROD_STATE", &stack.state)
            .env("STUB_ACCESS_TTL", ACCESS_TTL_SECS.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .output()
            .with_context(|| format!("could not run {}", stack.start_script.display()))?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            bail!(
                "production's households service did not start ({}; its messages are above): {}",
                out.status,
                stdout.trim()
            );
        }
        let base = stdout
            .lines()
            .find_map(|l| l.strip_prefix("BASE="))
            .map(|b| b.trim().to_string())
            .with_context(|| format!("start.sh printed no BASE= line: {}", stdout.trim()))?;
        eprintln!(
            "production's households service is up at {base} (started in {:.0} s)",
            started.elapsed().as_secs_f64()
        );
        stack.base = base;
        Ok(stack)
    }

    /// Stops what `start.sh` recorded for this checkout (nothing when nothing runs).
    fn stop(&self) {
        let _ = Command::new("bash")
            .arg(&self.start_script)
            .arg("stop")
            .env("REALPROD_STATE", &self.state)
            .stdout(Stdio::null())
            .status();
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `proxy.py`: the console from `site` and `/api/v1/*` forwarded to the stack, one origin.
pub struct Proxy {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
}

impl Proxy {
    /// Starts the proxy on a free port and waits for its `PROXY=` line.
    pub fn start(stack: &Stack, site: &Path) -> Result<Proxy> {
        let (script, base) = (stack.dir.join("proxy.py"), &stack.base);
        let mut child = Command::new("python3")
            .arg(&script)
            .arg(site)
            .arg(base)
            .args(["--port", "0", "--quiet"])
            .stdout(Stdio::piped())
            .spawn()
            .with_context(|| format!("could not start python3 {}", script.display()))?;
        let stdout = child.stdout.take().context("no stdout")?;
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(url) = line.strip_prefix("PROXY=") {
                    let _ = sender.send(url.trim().to_string());
                }
            }
        });
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(url) = receiver.recv_timeout(Duration::from_millis(200)) {
                eprintln!("the same-origin proxy is up at {url}");
                return Ok(Proxy { child, url });
            }
            if let Some(status) = child.try_wait()? {
                bail!("proxy.py exited before listening ({status})");
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                bail!("proxy.py did not start within 30 s");
            }
        }
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Lays the built console out for `proxy.py`, which serves its directory from the origin's root
/// and answers unknown paths with the root's `index.html`: the build goes under `prefix` (the
/// public URL it was built for, so its absolute asset paths resolve) and its `index.html` also
/// at the root (so deep links under the prefix load the console). Copied rather than linked:
/// the proxy refuses files whose real path leaves its directory.
pub fn site(dist: &Path, prefix: &str) -> Result<PathBuf> {
    let site = root().join("target/realprod-site");
    if site.exists() {
        std::fs::remove_dir_all(&site).with_context(|| format!("clearing {}", site.display()))?;
    }
    let under = site.join(prefix.trim_matches('/'));
    copy_tree(dist, &under)?;
    if under != site {
        std::fs::copy(dist.join("index.html"), site.join("index.html"))
            .context("the console build has no index.html")?;
    }
    Ok(site)
}
