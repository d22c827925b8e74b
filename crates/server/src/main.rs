//! The `larder-server` binary: logging, the command line, then [`larder_server::run`].

use clap::Parser;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "larder_server=info,tower_http=info".into()),
        )
        .init();
    let options = larder_server::Options::parse();
    larder_server::run(options).await
}
