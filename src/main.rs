#[cfg(target_arch = "wasm32")]
fn main() {
    // A panic must at least say why in the browser console before the app stops.
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(larder::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("Larder is a browser app: run `cargo xtask serve` to build and serve it.");
}
