#[cfg(target_arch = "wasm32")]
fn main() {
    // A panic must at least say why in the browser console before the app stops.
    console_error_panic_hook::set_once();
    // index.html's sign-in form goes, and what was typed into it stays, before the console shows.
    larder::boot::take_over();
    leptos::mount::mount_to_body(larder::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("Larder is a browser app: run `cargo xtask serve` to build and serve it.");
}
