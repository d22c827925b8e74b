#[cfg(target_arch = "wasm32")]
fn main() {
    // A panic must at least say why in the browser console before the app stops. Release
    // builds leave the hook out: its formatting would sit in the module sign-in waits for.
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
    larder::boot::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("Larder is a browser app: run `cargo xtask serve` to build and serve it.");
}
