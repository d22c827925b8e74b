//! larder-server: the reference Nutrition Data & Household API on axum and SQLite.
//!
//! [`Options`] is the command line; [`prepare`] opens the database and loads accounts and demo
//! data; [`start`] binds and serves (slow-client limits in [`serve`]); [`app`] builds the router.
//! `--wire` picks the [`wire::Dialect`] the handlers answer in: everything that differs between
//! the reference wire and production's is in [`wire`].
//!
//! Routes, under `/api/v1` (`{c}` is each of the seven collections, mounted from its descriptor):
//!
//! | Method | Path | |
//! |---|---|---|
//! | POST | `system/login`, `system/mtm` | sign-in |
//! | GET | `system/ping` | who is asking |
//! | GET, POST | `households` | admin list (searched on the reference wire); create (one per owner) |
//! | GET | `households/me` | |
//! | GET, PATCH, DELETE | `households/{id}` | |
//! | GET, POST | `members` | list needs `household_id` |
//! | GET, PATCH, DELETE | `members/{id}` | |
//! | GET, POST, PATCH, DELETE | `members/{id}/profile` | |
//! | DELETE | `users/me` | erasure |
//! | GET, POST | `users/me/consent` | the consent ledger |
//! | POST | `users/me/claim` | a guest keeps the account |
//! | GET, POST | `shares` | the caller's share links; share a plan |
//! | DELETE | `shares/{token}` | revoke; POST `.../email` answers "not configured" |
//! | GET | `shares/public/{token}` | no token: the snapshot |
//! | GET | `system/health` | no token; `system/indices`, `system/embeddings` for `admin` |
//! | POST | `articles/embeddings/backfill` | and `guidelines/...`, for `admin` |
//! | GET, POST | `{c}` | identifiers (not passages); create |
//! | GET, PATCH, PUT, DELETE | `{c}/{slug, urn or uuid}` | |
//! | POST | `{c}/search` | articles, guides, guidelines, textbooks, fctables; GET too for articles |
//! | PATCH | `{c}/{urn}/enhance` | URN collections |
//! | GET | `artifacts?parent_urn=` | the parent's artifact records |
//! | POST | `artifacts/upload` | multipart, streamed to disk |
//! | GET | `artifacts/{id}/download` | streamed |
//! | GET | `guidelines/by-guide/{urn}` | POST `.../search`, POST `.../import` |
//! | GET | `textbook-passages/by-textbook/{urn}` | POST `.../search`, POST `.../replace` |

pub mod account_config;
pub mod app;
pub mod auth;
pub mod bounded_json;
pub mod demo;
pub mod embeddings;
pub mod enhance;
pub mod error;
pub mod faults;
pub mod guests;
pub mod host;
pub mod maintenance;
pub mod model;
pub mod request_id;
pub mod routes;
pub mod serve;
pub mod shares;
pub mod static_files;
pub mod status;
pub mod store;
pub mod wire;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Parser;

pub use wire::Wire;

/// The longest token lifetime accepted, in seconds (a day).
pub const MAX_TOKEN_TTL: u64 = 86_400;

fn parse_token_ttl(value: &str) -> Result<u64, String> {
    let ttl: u64 = value
        .parse()
        .map_err(|_| format!("{value:?} is not a number of seconds"))?;
    if !(60..=MAX_TOKEN_TTL).contains(&ttl) {
        return Err(format!(
            "a token lives between 60 and {MAX_TOKEN_TTL} seconds"
        ));
    }
    Ok(ttl)
}

/// Seconds, fractions allowed (`0.5`), more than zero and at most a day (a far deadline would
/// overflow the clock).
fn parse_seconds(value: &str) -> Result<std::time::Duration, String> {
    value
        .parse::<f64>()
        .ok()
        .filter(|seconds| *seconds > 0.0 && *seconds <= 86_400.0)
        .map(std::time::Duration::from_secs_f64)
        .ok_or_else(|| format!("{value:?} is not a number of seconds between 0 and 86400"))
}

fn parse_public_url(value: &str) -> Result<String, String> {
    let url = value.trim().trim_end_matches('/');
    if !(url.starts_with("http://") || url.starts_with("https://")) || url.contains(['?', '#']) {
        return Err(format!(
            "{value:?} is not an http(s) address like https://api.example.org"
        ));
    }
    Ok(url.to_string())
}

/// The command line of `larder-server`.
#[derive(Parser, Debug, Clone)]
#[command(
    version,
    about = "The reference Nutrition Data & Household API service",
    after_help = "Account secrets on the command line are visible to other users of the machine \
(ps); prefer --user-file/--client-file or the LARDER_USERS/LARDER_CLIENTS environment variables."
)]
pub struct Options {
    /// Address serving both APIs under /api/v1 (and the console with --static).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Serve the systemic API (system/, households, members) here instead of on --addr.
    #[arg(long)]
    pub system_addr: Option<SocketAddr>,
    /// SQLite database file; `:memory:` keeps everything in memory.
    #[arg(long, default_value = "larder.db")]
    pub db: String,
    /// Folder of the static console, served with an index.html fallback.
    #[arg(long = "static")]
    pub static_dir: Option<PathBuf>,
    /// The path the console is served under with --static (e.g. `/console`); the API stays at /api/v1.
    #[arg(long, default_value = "/", value_parser = parse_static_prefix)]
    pub static_prefix: String,
    /// Load the demo data set and demo accounts (idempotent).
    #[arg(long)]
    pub demo: bool,
    /// Add N deterministic synthetic articles (for benchmarks).
    #[arg(long, default_value_t = 0)]
    pub generate_articles: usize,
    /// A user account NAME:PASSWORD[:ROLE,ROLE], created or updated at start.
    #[arg(long = "user")]
    pub users: Vec<String>,
    /// A machine client ID:SECRET[:ROLE,ROLE], created or updated at start.
    #[arg(long = "client")]
    pub clients: Vec<String>,
    /// A file of user accounts, one NAME:PASSWORD[:ROLE,ROLE] per line (# starts a comment);
    /// the environment variable LARDER_USERS may hold the same lines. Read at start and on
    /// SIGHUP: accounts no longer declared anywhere are deleted, and tokens of removed or
    /// changed accounts are refused.
    #[arg(long = "user-file")]
    pub user_file: Option<PathBuf>,
    /// A file of machine clients, one ID:SECRET[:ROLE,ROLE] per line; or LARDER_CLIENTS. Read
    /// at start and on SIGHUP, as --user-file.
    #[arg(long = "client-file")]
    pub client_file: Option<PathBuf>,
    /// A file holding the token signing key (at least 32 bytes); or LARDER_TOKEN_KEY (hex).
    /// Without either, a key is generated and kept in the database, which suits demos only:
    /// anyone with a copy of the database could then sign tokens.
    #[arg(long = "token-key-file")]
    pub token_key_file: Option<PathBuf>,
    /// The address clients reach the API at (https://api.example.org); error bodies link their
    /// `help` under it. Without it, `help` is the request's path.
    #[arg(long = "public-url", value_parser = parse_public_url)]
    pub public_url: Option<String>,
    /// Which service's wire to answer with. Read once, into [`AppState::dialect`].
    #[arg(long, value_enum, default_value_t = Wire::Reference)]
    pub wire: Wire,
    /// An origin allowed by CORS besides the server's own; `*` allows any origin.
    #[arg(long = "cors-origin")]
    pub cors_origins: Vec<String>,
    /// Lifetime of issued tokens, in seconds (60 to 86400).
    #[arg(long, default_value_t = 3600, value_parser = parse_token_ttl)]
    pub token_ttl: u64,
    /// Largest accepted upload, in bytes.
    #[arg(long, default_value_t = larder_contract::limits::DEFAULT_MAX_UPLOAD)]
    pub max_upload: u64,
    /// Seconds a client has to send a request's head (also the longest wait for the next
    /// request on a kept-alive connection).
    #[arg(long, default_value = "10", value_parser = parse_seconds)]
    pub header_timeout: std::time::Duration,
    /// Seconds a connection may stay silent (no byte either way, no request being handled)
    /// before it is closed; also the longest pause inside a request body.
    #[arg(long, default_value = "60", value_parser = parse_seconds)]
    pub idle_timeout: std::time::Duration,
    /// Open connections served at once, over all listeners; further ones wait to be accepted.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,
    /// Open connections one source (an IPv4 address, an IPv6 /64) may hold, over all
    /// listeners; further ones are answered 503 and closed. A quarter of --max-connections when
    /// not given. Behind a proxy every connection comes from the proxy: set it to
    /// --max-connections there.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections_per_source: Option<u32>,
    /// The slowest a request body may arrive, in bytes per second on average, counted from
    /// --header-timeout after its head: a body behind that fails and its connection closes.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..))]
    pub min_body_rate: u64,
    /// A host name the server answers to besides localhost, 127.0.0.1, [::1] and the
    /// --public-url's host (repeatable). Other Host headers get 421 (see `host`).
    #[arg(long = "allow-host")]
    pub allow_hosts: Vec<String>,
    /// Start closed for maintenance: every request of a non-admin but sign-in and
    /// `system/ping` answers 503 `platform/maintenance` (see `maintenance`).
    #[arg(long)]
    pub maintenance: bool,
    /// Test only: serve `/__faults`, which makes chosen API requests fail (see `faults`).
    #[arg(long)]
    pub fault_injection: bool,
    /// Also accept access tokens of this OpenID Connect provider (its issuer exactly, e.g.
    /// http://localhost:8081/realms/master; plain http only): signed by its published keys, for
    /// an --oidc-audience, not expired; roles from `realm_access` and `resource_access`, the
    /// household owner its `sub` (see `auth::oidc`). This server's own sign-in keeps working.
    #[arg(long = "oidc-issuer", value_parser = auth::oidc::parse_issuer)]
    pub oidc_issuer: Option<String>,
    /// An audience the provider's access tokens must name (repeatable; production's services
    /// accept `account` and `master-realm`).
    #[arg(long = "oidc-audience", default_value = auth::oidc::DEFAULT_AUDIENCE, requires = "oidc_issuer")]
    pub oidc_audiences: Vec<String>,
}

/// `/console/` and `console` become `/console`; `/` stays; a prefix inside `/api` is refused.
fn parse_static_prefix(value: &str) -> Result<String, String> {
    let trimmed = value.trim().trim_matches('/');
    if trimmed.is_empty() {
        return Ok("/".into());
    }
    if trimmed == "api" || trimmed.starts_with("api/") {
        return Err("the console cannot live under /api".into());
    }
    if trimmed.split('/').any(|part| {
        part.is_empty() || part == "." || part == ".." || part.contains(['{', '}', '*', '?', '#'])
    }) {
        return Err(format!("{value:?} is not a plain path like /console"));
    }
    Ok(format!("/{trimmed}"))
}

impl Options {
    /// The share of the connection slots one source may hold.
    pub fn connections_per_source(&self) -> u32 {
        self.max_connections_per_source
            .unwrap_or((self.max_connections / 4).max(1))
            .min(self.max_connections)
    }

    /// Options for tests: in-memory database, any CORS origin, port chosen by the OS.
    pub fn for_tests() -> Options {
        Options::parse_from([
            "larder-server",
            "--addr",
            "127.0.0.1:0",
            "--db",
            ":memory:",
            "--cors-origin",
            "*",
        ])
    }
}

/// The state every handler sees.
pub struct AppState {
    /// The database.
    pub store: store::Store,
    /// Token signing and password checking.
    pub auth: auth::Auth,
    /// The options the server started with.
    pub options: Options,
    /// How the chosen wire answers where the wires differ (see [`wire`]); handlers ask it
    /// rather than test `options.wire`.
    pub dialect: &'static wire::Dialect,
    /// Armed faults (only consulted with --fault-injection).
    pub faults: faults::Faults,
    /// Whether the service is closed for maintenance.
    pub maintenance: maintenance::Maintenance,
    /// Whether guests' daily budget is spent (switched through `/__faults`).
    pub guest_budget: guests::Budget,
    /// The health answer and integrity check, reused while fresh (see [`status`]).
    pub checks: status::Checks,
}

/// Shared handle to the state.
pub type SharedState = Arc<AppState>;

/// Opens the database, creates accounts and demo data, and returns the state.
pub fn prepare(options: Options) -> anyhow::Result<SharedState> {
    let store = store::Store::open(&options.db)?;
    let key = auth::configured_key(options.token_key_file.as_deref())?;
    // The one place the wire is chosen: from here on everything asks the dialect.
    let dialect = options.wire.dialect();
    let mut auth = auth::Auth::new(&store, options.token_ttl, key, dialect)?;
    if let Some(issuer) = &options.oidc_issuer {
        auth = auth.with_provider(auth::oidc::Checker::new(issuer, &options.oidc_audiences)?);
    }
    let changes = account_config::apply(&store, &auth, &options)?;
    if !changes.is_empty() {
        tracing::info!("accounts: {changes}");
    }
    if options.demo {
        demo::load(&store, &auth)?;
    }
    if options.generate_articles > 0 {
        demo::generate_articles(&store, options.generate_articles)?;
    }
    Ok(Arc::new(AppState {
        store,
        auth,
        faults: faults::Faults::default(),
        maintenance: maintenance::Maintenance::new(options.maintenance),
        guest_budget: guests::Budget::default(),
        checks: status::Checks::default(),
        dialect,
        options,
    }))
}

/// A running server: its bound addresses and a handle to stop it.
pub struct Running {
    /// Where the data API (and, without --system-addr, the systemic API) listens.
    pub addr: SocketAddr,
    /// Where the systemic API listens.
    pub system_addr: SocketAddr,
    shutdown: tokio::sync::watch::Sender<bool>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Running {
    /// Stops accepting and waits for the servers to end.
    pub async fn stop(self) {
        let _ = self.shutdown.send(true);
        for task in self.tasks {
            let _ = task.await;
        }
    }
}

/// Binds the listeners and serves in background tasks.
pub async fn start(state: SharedState) -> anyhow::Result<Running> {
    let (shutdown, watcher) = tokio::sync::watch::channel(false);
    let options = &state.options;
    let main_listener = tokio::net::TcpListener::bind(options.addr).await?;
    let addr = main_listener.local_addr()?;
    let mut tasks = Vec::new();
    let limits = serve::Limits {
        header_timeout: options.header_timeout,
        idle_timeout: options.idle_timeout,
        pace: serve::Pace {
            grace: options.header_timeout,
            bytes_per_second: options.min_body_rate,
        },
        connections: Arc::new(tokio::sync::Semaphore::new(
            options.max_connections as usize,
        )),
        sources: Arc::new(serve::Sources::new(
            options.connections_per_source() as usize
        )),
    };
    let (main_router, system_addr) = match options.system_addr {
        Some(system_addr) => {
            let system_listener = tokio::net::TcpListener::bind(system_addr).await?;
            let system_addr = system_listener.local_addr()?;
            let system_router = app::router(state.clone(), app::Apis::System, &[addr, system_addr]);
            tasks.push(serve::spawn(
                system_listener,
                system_router,
                watcher.clone(),
                limits.clone(),
            ));
            (
                app::router(state.clone(), app::Apis::Data, &[addr, system_addr]),
                system_addr,
            )
        }
        None => (app::router(state.clone(), app::Apis::Both, &[addr]), addr),
    };
    if let Some(provider) = state.auth.provider() {
        tasks.push(provider.clone().spawn_refresher(watcher.clone()));
    }
    tasks.push(serve::spawn(main_listener, main_router, watcher, limits));
    Ok(Running {
        addr,
        system_addr,
        shutdown,
        tasks,
    })
}

/// Runs the server until Ctrl-C; SIGHUP reloads the accounts (see [`account_config`]).
pub async fn run(options: Options) -> anyhow::Result<()> {
    let demo = options.demo;
    let state = prepare(options)?;
    // Before anything is printed: SIGHUP's default action ends the process.
    #[cfg(unix)]
    let reloader = account_config::reload_on_hangup(state.clone())?;
    let running = start(state.clone()).await?;
    println!("larder-server listening on http://{}", running.addr);
    if running.system_addr != running.addr {
        println!("systemic API on http://{}", running.system_addr);
    }
    if let Some(provider) = state.auth.provider() {
        println!("identity provider: {}", provider.issuer());
    }
    if state.options.static_dir.is_some() {
        let prefix = state.options.static_prefix.trim_end_matches('/');
        println!("console: http://{}{prefix}/", running.addr);
    }
    if demo {
        println!("demo sign-ins:");
        for (name, password, roles) in demo::DEMO_USERS {
            println!(
                "  user   {name} / {password}  roles: [{}]",
                roles.join(", ")
            );
        }
        for (id, secret, roles) in demo::DEMO_CLIENTS {
            println!("  client {id} / {secret}  roles: [{}]", roles.join(", "));
        }
        println!(
            "  users  family01..family{:02} / {}  (household owners)",
            demo::FAMILY_COUNT,
            demo::FAMILY_PASSWORD
        );
    }
    tokio::signal::ctrl_c().await?;
    #[cfg(unix)]
    reloader.abort();
    running.stop().await;
    Ok(())
}
