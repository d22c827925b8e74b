#[cfg(target_arch = "wasm32")]
fn main() {
    // A panic must at least say why in the browser console before the app stops. Release
    // builds leave the hook out: its formatting would sit in the module sign-in waits for.
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
    larder::boot::start();
}

/// For the start-up module (crates/start): it has made the sign-in form work, and hands the
/// form over with config.json's and the start-up catalog's texts (see `boot::take_over`).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub async fn take_over(config: Option<String>, start_texts: Option<String>) {
    larder::boot::take_over(config, start_texts).await;
}

/// For the start-up module: a press of "Sign in", with its sign-in's answer (`status` 0: none
/// was sent) and, for "My household", a promise of its read of the owner's household (see
/// `boot::pressed`).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn pressed(status: u16, body: Option<String>, household: wasm_bindgen::JsValue) {
    use wasm_bindgen::JsCast;
    larder::boot::pressed(status, body, household.dyn_into().ok());
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("Larder is a browser app: run `cargo xtask serve` to build and serve it.");
}
