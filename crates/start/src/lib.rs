//! Larder's start: every hand-made piece between opening a link and a page working, in this one
//! crate, mapped here once. Everything else the console does the framework's way (Leptos lazy
//! routes, `larder::lazy`). Figures: `cargo xtask bench --only start` on the bench's phone line
//! (1.6 Mbps, 150 ms); docs/bench-log.md has the rounds that bought each piece.
//!
//! # The path, in request order
//!
//! 1. **The page** (`GET <path>`, one round trip). index.html carries the form's style, this
//!    crate's browser module (its bytes as a data block), its glue and its start as one inline
//!    script, and the start-up catalog: "Sign in" works after the page's own round trip, no
//!    file after it (issue 24's eighth round: 523 → 363 ms, 2.7x → 1.9x the floor page).
//!    Built by [`build::page`] (feature `build`, called by `cargo xtask dist`); the policy allows
//!    the script and style by their hashes. `js/boot.js` starts the same module from its files
//!    when a policy refuses the inline one (a round trip later).
//! 2. **config.json** (preloaded by the page). The module (`src/web.rs`, the binary: no serde,
//!    no Leptos, ~24 KB brotli) reads it and the catalog ([`config`], [`language`]), then makes
//!    "Sign in" work: ~24 KB on the wire before it (third round: 977 → 566 ms against the
//!    console's own module making the form work). It is the form's only driver: without what
//!    it needs (a broken config.json, no start-up catalog) it leaves the page to the console,
//!    which shows its own sign-in page (`larder::start`).
//! 3. **The console's module and the landing's group**, once "Sign in" is painted: one bundle
//!    per landing ([`landing`] picks the group from the link), the console's main module and
//!    the group's parts in one answer, read as it streams (`js/boot.js`, `js/read_bundle.js`,
//!    [`build::bundle`]; fourth round: a bookmark 3,123 → 2,557 ms, 35 requests → 4, the parts
//!    15 % smaller compressed together). The console takes over ([`form::TAKEN`]): config,
//!    language, the group's module ahead (`larder::start::take_over`), and, once the frame is
//!    painted, the language's `Intl` formatters (a page's first `Intl` object costs 25 to 40 ms:
//!    not after the press).
//! 4. **The press**: what the form lacks is said at once ([`login::missing`]); the sign-in goes
//!    out ([`login::request`], the API client builds its own from the same [`login::fields`]) and
//!    a refusal is said at once ([`login::failure_detail`]), without waiting for the console.
//!    **Or at the identity provider** (config.json's `oidc`, issue 42): a build of this module
//!    with the feature `provider`, a file of its own (`start_oidc_bg.wasm`, fetched beside its
//!    glue by `js/boot.js`'s `startProvider`, 30 s at most), to which the module in the page
//!    hands the start when it reads `oidc` (the provider's code had doubled the module: 55 → 34
//!    KB brotli of page without it). There `src/web/oidc.rs` runs the redirect legs of the pure core [`oidc`]:
//!    on load a silent sign-in (`prompt=none`, a top-level redirect; not once the person typed
//!    or pressed Sign in) or, back from the provider, the answer checked, the code exchanged
//!    and the ID token's signature checked by WebCrypto; "Sign in with <provider>" beside the
//!    form. The one-time values wait in `js/oidc-worker.js` (a service worker, memory only);
//!    the console's `provider_signed_in` takes the tokens (renewed by the API client's
//!    `Credentials::Provider`).
//! 5. **The token's first reads** ([`token`]): `system/ping` (who signed in) and, for "My
//!    household", `households/me`, side by side; the household's name and members' names show
//!    at once (`src/web/preview.rs`, the one place the household is drawn by other than the
//!    console's component; sixth round: members 2,525 → 1,005 ms).
//! 6. **The hand-over** (`pressed`): the console's client reads those answers as its own,
//!    makes the signed-in person (`larder::session`: the early reads are theirs, taken once by
//!    the page they are for) and mounts; the landing route's `data()` takes the household read,
//!    its `view()` draws the page from the group's module (`larder::lazy`). What the page
//!    fetches ahead (its tools' module, the member page's) is asked for once it is painted
//!    (`larder::lazy::after_paint`: asked for while it was drawn, some 60 requests held its first
//!    paint back by 50 to 75 ms).
//!
//! Not kept: renaming the glue's hashed import names short (issue 24's fifth round). Issue 37's
//! A/B in one run (`cargo xtask bench --only start --before`): 2.9 KB and about 12 ms before
//! "Sign in" works (386 against 398 ms, both within 450), 3 KB of a 352 KB bundle, no
//! difference in the figures after the press; 278 lines less.
//!
//! # What the two modules share
//!
//! The rules above are pure and tested natively; the console uses them (the language,
//! the landing, the sign-in's fields and token keys, config.json's keys), and
//! `tests/request.rs` holds the URLs both build equal.

pub mod config;
pub mod correlation;
pub mod display;
pub mod form;
pub mod json;
pub mod landing;
pub mod language;
pub mod login;
pub mod oidc;
pub mod token;

#[cfg(feature = "build")]
pub mod build;
