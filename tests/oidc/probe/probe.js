// The carrier probe (issue 42; tests/e2e/oidc-carrier.spec.ts drives it): a sign-in at the
// identity provider by top-level redirect, with `state`, `nonce` and the PKCE verifier kept only
// in the service worker's memory (crates/start/js/oidc-worker.js) while the page is away. It
// follows larder_start::oidc's rules in a few lines of JavaScript (the module does it in Rust);
// what it shows in #result is what the journey checks. Tokens stay in this page's memory.
const result = document.getElementById('result');
const button = (id) => document.getElementById(id);
function show(outcome) {
  result.textContent = JSON.stringify(outcome);
  result.dataset.status = outcome.status;
  button('sign-out').hidden = outcome.status !== 'signed-in';
  button('fallback').hidden = outcome.status !== 'nothing-pending';
}

const base64url = (bytes) => btoa(String.fromCharCode(...bytes))
  .replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const random = (length) => base64url(crypto.getRandomValues(new Uint8Array(length)));
// The console's own address: the redirect and post-logout URI registered at the provider.
const consoleAddress = new URL('./', location.href).href;

async function carrier() {
  const registration = await navigator.serviceWorker.register('oidc-worker.js');
  await navigator.serviceWorker.ready;
  return registration.active;
}

function ask(worker, message) {
  return new Promise((resolve, reject) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => reject(new Error('the carrier did not answer')), 5000);
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      resolve(event.data);
    };
    worker.postMessage(message, [channel.port2]);
  });
}

const { oidc } = await (await fetch('config.json')).json();
const discovery = await (await fetch(`${oidc.issuer}/.well-known/openid-configuration`)).json();
let session = null;

async function begin(silent) {
  const worker = await carrier();
  const [state, nonce, verifier] = [random(16), random(16), random(32)];
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  const value = JSON.stringify({ state, nonce, verifier, created: Date.now() });
  const put = await ask(worker, { op: 'put', key: state, value });
  if (!put.ok) return show({ status: 'carrier-refused' });
  const url = new URL(discovery.authorization_endpoint);
  const query = {
    response_type: 'code', client_id: oidc.client_id, redirect_uri: consoleAddress, scope: 'openid profile',
    state, nonce, code_challenge: base64url(new Uint8Array(digest)), code_challenge_method: 'S256',
    response_mode: 'fragment', ...(silent ? { prompt: 'none' } : {}),
  };
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  location.assign(url.href);
  return undefined;
}

async function back(fragment) {
  const answer = new URLSearchParams(fragment);
  const worker = await carrier();
  const taken = await ask(worker, { op: 'take', key: answer.get('state') ?? '' });
  if (!taken.ok || taken.value === null) return show({ status: 'nothing-pending' });
  const pending = JSON.parse(taken.value);
  const again = await ask(worker, { op: 'take', key: pending.state });
  const checks = {
    stateMatches: answer.get('state') === pending.state,
    issuerMatches: answer.get('iss') === oidc.issuer,
    secondTake: again.value,
  };
  if (!checks.stateMatches || !checks.issuerMatches) return show({ status: 'mismatch', ...checks });
  if (answer.has('error')) return show({ status: 'error', error: answer.get('error'), ...checks });
  const response = await fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code', code: answer.get('code'), redirect_uri: consoleAddress,
      client_id: oidc.client_id, code_verifier: pending.verifier,
    }),
  });
  const tokens = await response.json();
  if (!response.ok) return show({ status: 'refused', error: tokens.error, ...checks });
  session = tokens;
  const payload = tokens.id_token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
  const claims = JSON.parse(atob(payload));
  return show({ status: 'signed-in', sub: claims.sub, nonceMatches: claims.nonce === pending.nonce, ...checks });
}

function signOut() {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = discovery.end_session_endpoint;
  const fields = { id_token_hint: session.id_token, client_id: oidc.client_id, post_logout_redirect_uri: consoleAddress };
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  session = null;
  document.body.append(form);
  form.submit();
}

button('sign-in').addEventListener('click', () => begin(false));
button('fallback').addEventListener('click', () => begin(false));
button('silent').addEventListener('click', () => begin(true));
button('sign-out').addEventListener('click', signOut);

// Back from the provider: the answer leaves the history entry before anything else.
const fragment = location.hash.slice(1);
if (/(^|&)(code|error|state)=/.test(fragment)) {
  history.replaceState(null, '', location.pathname + location.search);
  await back(fragment);
} else {
  show({ status: 'ready' });
}
