// A measured proposal, not part of the console (issue 24): what "Sign in" would cost if the
// start-up set came in index.html's own answer, one round trip instead of two.
//
//   node one_trip.mjs DIST BASE_PORT INLINE_PORT
//
// Serves DIST (a `cargo xtask dist --public-url /console/` build) under /console/ twice: as
// built on BASE_PORT, and on INLINE_PORT with the start-up set inside index.html: the style
// sheet as a <style>, the start-up catalog and the module's bytes as data blocks (a byte b as
// the character U+0100+b, which brotli packs to 1 KB over the bytes' own brotli, where base64
// costs 6 KB), and the glue, the bytes' decoding and `run` as one inline module script. The
// inline script and style are allowed by their sha256 hashes in the page's policy, the rest of
// which is unchanged. `config.json` stays a file, preloaded as now. The console itself is not
// loaded (`run` is handed a loader that never resolves), and the module's fetch of the
// catalog is answered from the page by a shim: enough to time "Sign in", nothing more.
// Both are served by this one server, brotli from the build's .br files, without response
// headers of policy or CORS, so the two differ only in the page. Time them beside the floor:
//   node browser.mjs start http://127.0.0.1:8790/console/ http://127.0.0.1:8790/console/floor.html 6 throttled \
//     base=http://127.0.0.1:BASE_PORT/console/household inline=http://127.0.0.1:INLINE_PORT/console/household \
//     floor_here=http://127.0.0.1:BASE_PORT/console/floor.html
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

const [dist, basePort, inlinePort] = process.argv.slice(2);
if (!dist || !basePort || !inlinePort) {
  console.error('usage: node one_trip.mjs DIST BASE_PORT INLINE_PORT');
  process.exit(2);
}
const assets = readdirSync(dist).find((name) => name.startsWith('larder-') && statSync(join(dist, name)).isDirectory());
const read = (path) => readFileSync(join(dist, path), 'utf8');
const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const brotli = (text) => brotliCompressSync(Buffer.from(text, 'utf8'), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });

/** index.html with the start-up set inside. */
function onePage() {
  const glue = read(`${assets}/start.js`);
  const css = read(`${assets}/start.css`);
  const catalog = read('locales/start.json');
  const bytes = readFileSync(join(dist, assets, 'start_bg.wasm'));
  const initSync = /export\{(\w+) as initSync/.exec(glue)?.[1];
  if (!initSync) throw new Error('the glue exports no initSync');
  const shim = '{const c=document.getElementById("start-catalog").textContent,f=window.fetch;'
    + 'window.fetch=function(u,...a){return String(u).endsWith("locales/start.json")'
    + '?Promise.resolve(new Response(c,{headers:{"content-type":"application/json"}})):f.call(this,u,...a)}}';
  const script = `${shim}${glue};{const b=document.getElementById("start-wasm").textContent;`
    + 'const u=new Uint8Array(b.length);for(let i=0;i<b.length;i++)u[i]=b.charCodeAt(i)-256;'
    + `${initSync}({module:u});run(function(){return new Promise(()=>{})});}`;
  const wasmText = Array.from(bytes, (b) => String.fromCharCode(0x100 + b)).join('');
  let html = read('index.html')
    .replace("script-src 'self' 'wasm-unsafe-eval'", `script-src 'self' 'wasm-unsafe-eval' ${sha256(script)}`)
    .replace("style-src 'self'", `style-src 'self' ${sha256(css)}`)
    .replace(/\s*<link rel="modulepreload"[^>]*>/, '')
    .replace(/\s*<link rel="preload" href="[^"]*start_bg\.wasm"[^>]*>/, '')
    .replace(/\s*<link rel="preload" href="[^"]*start\.json"[^>]*>/, '')
    .replace(/<link rel="stylesheet"[^>]*>/, () => `<style>${css}</style>`)
    .replace(/\s*<script type="module" src="[^"]*boot\.js"><\/script>/, '');
  html = html.replace('</body>', () => `<script type="application/json" id="start-catalog">${catalog}</script>\n`
    + `<script type="application/octet-stream" id="start-wasm">${wasmText}</script>\n`
    + `<script type="module">${script}</script>\n</body>`);
  return brotli(html);
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json' };

function serve(port, page) {
  createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (!path.startsWith('/console/')) { res.writeHead(404).end(); return; }
    const rel = normalize(path.slice('/console/'.length) || 'index.html');
    let file = join(dist, rel);
    const isPage = !existsSync(file) && !extname(rel);
    if (!isPage && (rel.startsWith('..') || !existsSync(file) || !statSync(file).isFile())) { res.writeHead(404).end('not found'); return; }
    if (isPage) file = join(dist, 'index.html');
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const br = /\bbr\b/.test(req.headers['accept-encoding'] ?? '') && existsSync(`${file}.br`);
    const body = isPage || rel === 'index.html' ? (page ?? readFileSync(`${file}.br`)) : readFileSync(br ? `${file}.br` : file);
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache', 'content-length': body.length, ...(br || isPage ? { 'content-encoding': 'br' } : {}) });
    res.end(body);
  }).listen(Number(port), '127.0.0.1');
}

const page = onePage();
serve(basePort, null);
serve(inlinePort, page);
console.error(`one_trip: ${dist} as built on :${basePort}, index.html of ${page.length} B brotli with the start-up set on :${inlinePort}`);
