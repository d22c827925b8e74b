//! What the browser tests share: the console's client pointed at the test server.

/// The console's client against `cargo xtask test`'s larder-server (LARDER_TEST_SERVER).
pub fn client() -> larder::ApiClient {
    // Failing loudly, not skipping: a run without a server must not look like a pass.
    let base = match option_env!("LARDER_TEST_SERVER") {
        Some(url) => url,
        None => panic!("LARDER_TEST_SERVER is set by `cargo xtask test`"),
    };
    let config = larder::config::parse(
        Some(&format!(
            r#"{{"data_api_base": "{base}", "system_api_base": "{base}"}}"#
        )),
        "http://unused",
    )
    .unwrap()
    .client;
    larder_api::Client::new(larder_api::transport::gloo::GlooTransport, config)
}
