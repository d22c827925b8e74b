// The console's loader (written into each build by xtask/src/split.rs, which fills in BUNDLED
// and STARTED). The start-up module (crates/start) comes inside index.html and calls
// `loadConsole` from here once "Sign in" works, naming the split module of the page the sign-in
// will land on (xtask/src/start_page.rs). When the page's own start did not run, this starts the
// same module from its files (below).

// Each split module's bundle file (`parts_<split>.wasm`): one file holding the console's main
// module and every part that split needs, one after another, behind a table of their names and
// lengths (xtask/src/split/bundle.rs). One answer instead of some 30: on a phone line each file
// cost a round trip and its headers, and compressed together they are 15 % smaller (issue 24).
const BUNDLED = __BUNDLED__;

// Once a bundle is asked for: its parts' answers by name, when its table has arrived. Each is
// taken once (by `loadConsole`, or the split loader `__wasm_split.js`, whose fetches call
// `part`); a load tried again, and a part the bundle does not hold, fetch the part's own file.
let bundle;

export function part(name, url) {
  if (bundle === undefined) return fetch(url);
  return bundle.then((parts) => {
    const answer = parts.get(name);
    if (answer === undefined) return fetch(url);
    parts.delete(name);
    return answer;
  });
}

const own = (name) => new URL(name, import.meta.url);

// Streams the bundle of `split` and settles each part's answer once its last byte is here, so
// the console's module compiles while the page's parts still arrive. A bundle that fails, or
// ends short, leaves the parts it did not deliver to their own files (and so to "Try again").
function fetchBundle(split) {
  const file = BUNDLED[split];
  if (bundle !== undefined || file === undefined) return;
  const parts = new Map();
  let tabled;
  bundle = new Promise((resolve) => { tabled = resolve; });
  let table = [], next = 0;
  const settle = [];
  const rest = () => {
    tabled(parts);
    for (; next < table.length; next++) settle[next](fetch(own(table[next][0])));
  };
  // The reader is a module of its own, asked for beside the bundle: not among the bytes
  // before "Sign in" works.
  const reader = import("./read_bundle.js");
  reader.catch(() => {});
  (async () => {
    const answer = await fetch(own(file));
    if (!answer.ok) throw new Error(`${file}: ${answer.status}`);
    const { readBundle } = await reader;
    await readBundle(answer.body, (entries) => {
      table = entries;
      for (const [name] of table) parts.set(name, new Promise((resolve) => { settle.push(resolve); }));
      tabled(parts);
    }, (index, bytes) => {
      settle[index](new Response(bytes, { headers: { "content-type": "application/wasm" } }));
      next = index + 1;
    });
  })().catch(rest);
}

// The console's style sheet (the form's, start.css, is the page's own): loaded before the
// console shows anything. One that fails does not stop the console; loading it again does.
function linkStyles() {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = own("larder.css").href;
  const loaded = new Promise((resolve) => {
    link.onload = resolve;
    link.onerror = () => { link.remove(); styled = undefined; resolve(); };
  });
  document.head.append(link);
  return loaded;
}

let styled;
async function loadConsole(split) {
  fetchBundle(split);
  styled ??= linkStyles();
  const module = part("larder_bg.wasm", own("larder_bg.wasm"));
  module.catch(() => {});
  // The glue and the split loader it imports, asked for together (one after another they took
  // three round trips).
  const [larder] = await Promise.all([import("./larder.js"), import("./__wasm_split.js"), styled]);
  const wasm = await larder.default({ module_or_path: module });
  // For the bench: the module's exports, its memory among them.
  dispatchEvent(new CustomEvent("larder-started", { detail: { wasm } }));
  return larder;
}

// A console whose config.json names an identity provider: the start-up module built with the
// provider's sign-in (`start_oidc`), started with config.json's text. The module inside the page
// is built without it (half its size) and hands the start over to this one (issue 37's bytes
// before "Sign in" works); a rejection leaves the password form to the module in the page.
// The module's bytes are asked for beside its glue (one after the other they cost a round trip
// more), and both have PROVIDER_WAIT_MS: on a line that stalls, the password form works then,
// and a module arriving later does not start.
const PROVIDER_WAIT_MS = 30000;

async function startProvider(config) {
  const signal = AbortSignal.timeout(PROVIDER_WAIT_MS);
  const late = new Promise((_, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason));
  });
  late.catch(() => {});
  const module = fetch(own("start_oidc_bg.wasm"), { signal });
  module.catch(() => {});
  const { default: start, run } = await Promise.race([import("./start_oidc.js"), late]);
  await Promise.race([start({ module_or_path: module }), late]);
  if (signal.aborted) throw signal.reason;
  run(loadConsole, undefined, config);
}

export { loadConsole, startProvider };

// The page's inline start sets STARTED once its module runs. Without it, the policy refused the
// inline script (a policy header that does not carry this build's hashes: docs/hosting.md) or
// the module did not start: the same start from its files, a round trip later, with the form's
// style sheet (refused beside the script).
if (!globalThis[__STARTED__]) {
  const style = document.createElement("link");
  style.rel = "stylesheet";
  style.href = own("start.css").href;
  document.head.append(style);
  const { default: start, run } = await import("./start.js");
  await start({ module_or_path: own("start_bg.wasm") });
  run(loadConsole, startProvider);
}
