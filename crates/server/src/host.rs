//! The Host check against DNS rebinding.
//!
//! A web page whose name an attacker re-points at 127.0.0.1 is, to the browser, the same origin
//! as the server on loopback, so it could read the API and sign in with demo accounts. The
//! request still names the attacker's host, so a server answers only names it knows:
//!
//! - bound to a loopback address: `localhost`, `127.0.0.1`, `[::1]`, the addresses it is bound
//!   to, the host of `--public-url` and every `--allow-host`, on any port;
//! - bound elsewhere (`0.0.0.0`, a LAN address): the same list, but only when `--public-url` or
//!   `--allow-host` is given; otherwise there are no names to check against and every Host is
//!   answered (the server is then meant to be reached under names only the operator knows).
//!
//! Other names get 421 Misdirected Request in the error envelope. A request without any Host
//! (HTTP/1.0 tools) is answered: a browser always sends one.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::Options;

/// The names a server answers to.
#[derive(Debug)]
pub struct Allowed(Vec<String>);

impl Allowed {
    /// The names for a listener bound to `own`, or `None` when no check applies.
    pub fn for_server(options: &Options, own: &[SocketAddr]) -> Option<Arc<Allowed>> {
        let named = !options.allow_hosts.is_empty() || options.public_url.is_some();
        if !named && !own.iter().any(|addr| addr.ip().is_loopback()) {
            return None;
        }
        let mut names: Vec<String> = ["localhost", "127.0.0.1", "::1"]
            .iter()
            .map(|name| name.to_string())
            .collect();
        names.extend(
            own.iter()
                .filter(|addr| !addr.ip().is_unspecified())
                .map(|addr| addr.ip().to_string()),
        );
        if let Some(url) = &options.public_url {
            let authority = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
            names.push(host_name(authority.split('/').next().unwrap_or_default()));
        }
        names.extend(options.allow_hosts.iter().map(|name| host_name(name)));
        names.sort();
        names.dedup();
        Some(Arc::new(Allowed(names)))
    }

    fn allows(&self, host: &str) -> bool {
        self.0.iter().any(|name| *name == host)
    }
}

/// `Example.org.:8080` → `example.org`; `[::1]:80` → `::1`.
fn host_name(authority: &str) -> String {
    let authority = authority.trim();
    let host = match authority.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or_default(),
        None => match authority.rsplit_once(':') {
            Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => host,
            _ => authority,
        },
    };
    host.trim_end_matches('.').to_ascii_lowercase()
}

/// Answers 400 to a request with more than one `Host` header (on every listener) and 421 to
/// one naming a host the server does not answer to (`None`: no name check on this listener).
pub async fn check(
    State(allowed): State<Option<Arc<Allowed>>>,
    request: Request,
    next: Next,
) -> Response {
    // RFC 9112 §3.2: a request with more than one Host field is a 400, whatever the names:
    // which of them a proxy and this server would each read is not to be guessed.
    let hosts = request.headers().get_all(header::HOST).iter().count();
    if hosts > 1 {
        return ApiError::invalid(format!(
            "A request carries one Host header; this one carries {hosts}."
        ))
        .into_response();
    }
    let Some(allowed) = allowed else {
        return next.run(request).await;
    };
    let named = match request.uri().authority() {
        Some(authority) => Some(authority.host().to_string()),
        None => request
            .headers()
            .get(header::HOST)
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned()),
    };
    match named {
        Some(host) if !allowed.allows(&host_name(&host)) => misdirected().into_response(),
        _ => next.run(request).await,
    }
}

/// 421: no kind of the twelve has this status, so it is a generic failure like 413.
fn misdirected() -> ApiError {
    ApiError {
        status: 421,
        code: "request/misdirected",
        title: "MisdirectedRequest".into(),
        detail: "This server does not answer to the host named in the request; \
                 its operator can allow the name with --allow-host."
            .into(),
        errors: None,
        retry_after: None,
        omitted: 0,
        bare: false,
        systemic: false,
    }
}

#[cfg(test)]
mod tests {
    use super::host_name;

    #[test]
    fn host_names_lose_port_case_and_final_dot() {
        assert_eq!(host_name("Example.ORG.:8080"), "example.org");
        assert_eq!(host_name("[::1]:80"), "::1");
        assert_eq!(host_name("[::1]"), "::1");
        assert_eq!(host_name("localhost"), "localhost");
        assert_eq!(host_name("127.0.0.1:1"), "127.0.0.1");
    }
}
