#[cfg(target_arch = "wasm32")]
fn main() {
    // A panic must at least say why in the browser console before the app stops. Release
    // builds leave the hook out: its formatting would sit in the module sign-in waits for.
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
    larder::start::begin();
}

/// For the start-up module (crates/start): it has made the sign-in form work, and hands over
/// config.json's text (see `start::take_over`).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub async fn take_over(config: Option<String>) {
    larder::start::take_over(config).await;
}

/// For the start-up module: a press of "Sign in", with what was typed, the sign-in's answer
/// (`status` 0: none came) and, with its token, promises of the start-up module's reads of
/// `system/ping` and (for "My household") `households/me`. Resolves to `null` once the console
/// is mounted, or to `[title, detail]` when the sign-in failed, for the form to say (see
/// `start::pressed`).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub async fn pressed(
    machine: bool,
    name: String,
    secret: String,
    status: u16,
    body: Option<String>,
    ping: wasm_bindgen::JsValue,
    household: wasm_bindgen::JsValue,
    request_id: Option<String>,
) -> wasm_bindgen::JsValue {
    use wasm_bindgen::JsCast;
    let press = larder::start::Press {
        machine,
        name,
        secret,
        answer: (status != 0).then(|| larder_api::transport::HttpResponse {
            status,
            // The id the start-up module sent: a failure read from this answer names it.
            headers: larder::start::request_id_header(request_id),
            body: body.unwrap_or_default(),
        }),
        ping: ping.dyn_into().ok(),
        household: household.dyn_into().ok(),
    };
    match larder::start::pressed(press).await {
        Ok(()) => wasm_bindgen::JsValue::NULL,
        Err(failure) => failure.into(),
    }
}

/// For the start-up module: a sign-in at the identity provider completed (its token answer's
/// `body`, the ID token checked there), to return to `return_to`. Resolves as `pressed` does
/// (see `start::provider_signed_in`).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub async fn provider_signed_in(
    body: String,
    token_endpoint: String,
    client_id: String,
    id_token: String,
    end_session: Option<String>,
    console: String,
    return_to: String,
) -> wasm_bindgen::JsValue {
    let signed_in = larder::start::provider_signed_in(larder::start::AtProvider {
        body,
        token_endpoint,
        client_id,
        id_token,
        end_session,
        console,
        return_to,
    })
    .await;
    match signed_in {
        Ok(()) => wasm_bindgen::JsValue::NULL,
        Err(failure) => failure.into(),
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("Larder is a browser app: run `cargo xtask serve` to build and serve it.");
}
