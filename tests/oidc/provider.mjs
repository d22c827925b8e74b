// The journeys' identity provider: panva's certified `oidc-provider`, shaped like production's
// Keycloak (issue 42). `cargo xtask` starts it (xtask/src/oidc.rs); by hand:
//
//   node tests/oidc/provider.mjs --port 0 --console http://127.0.0.1:8080/console/
//
// prints one line `OIDC_ISSUER=http://localhost:<port>` once it listens (on 127.0.0.1 only).
// The issuer is named `localhost` while consoles run on `127.0.0.1`: two sites, as production's
// Keycloak and console are, so the provider's cookies are never cookies of the console's host.
//
// What it gives, each as Keycloak does it:
// - one public client (`--client-id`, default `larder-console`): no secret, PKCE S256 required
//   (`plain` is refused), code flow only, redirect and post-logout redirect URIs exactly the
//   `--console` addresses (repeatable), token endpoint CORS for their origins;
// - the demo accounts (admin, curator, olivia, noah; passwords `<name>-demo`) with Keycloak's
//   claims: `preferred_username`, `realm_access.roles`, `resource_access.<client>.roles` (the
//   curator's `Expert` as a client role, spelled as production's realm has it), and `sub`
//   `user:<name>`, larder-server's own owner key, so the demo households are theirs;
// - JWT access tokens (RS256; `--at-alg ES256` for the other key type) with `aud: account`,
//   `azp` and a `typ: Bearer` claim; ID tokens with the nonce; refresh tokens on every code
//   exchange, tied to the provider's session and rotated on each use: REPLAYING AN OLD REFRESH
//   TOKEN REVOKES THE WHOLE GRANT (the newest refresh token dies too), as Keycloak's "Revoke
//   Refresh Token" does, so two tabs renewing with one token sign each other out;
// - `prompt=none` (`login_required` without a session), `response_mode=fragment`, the RFC 9207
//   `iss` in every answer;
// - RP-initiated logout (GET, or POST through a relay page: see END_SESSION below) without a
//   confirmation page;
// - a labelled sign-in form (`Username`, `Password`, `Sign in`; a wrong password is said in a
//   `role="alert"` paragraph) that a Playwright journey fills.
//
// `--sign-endpoint` (journeys only) adds `POST /_test/sign` with a JSON body
// `{claims, alg?: "RS256" | "ES256", key?: "own" | "foreign", header?: {...}}`: a JWT of those
// claims signed with the provider's own key (`kid` rs-1 or es-1), or with a key it never
// published under the same `kid` (`key: "foreign"`: a bad signature). A journey swaps such an
// ID token into a token answer to craft a wrong issuer, audience, nonce or signature.
import http from 'node:http';
import { parseArgs } from 'node:util';
import { generateKeyPair, exportJWK, SignJWT } from 'jose';
import Provider, { errors } from 'oidc-provider';

const { values: args } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    'public-host': { type: 'string', default: 'localhost' },
    console: { type: 'string', multiple: true, default: ['http://127.0.0.1:8080/'] },
    'client-id': { type: 'string', default: 'larder-console' },
    'access-ttl': { type: 'string', default: '300' },
    'at-alg': { type: 'string', default: 'RS256' },
    'sign-endpoint': { type: 'boolean', default: false },
  },
});
if (!['RS256', 'ES256'].includes(args['at-alg'])) throw new Error('--at-alg is RS256 or ES256');

// Users as a Keycloak realm holds them: realm roles, and client roles under the console's client.
// Every realm gives its users `offline_access` and `uma_authorization` (its default roles) and
// the `account` client's roles, which is what puts `account` in their tokens' audience.
const USERS = {
  admin: { realm: ['admin'], client: [] },
  curator: { realm: [], client: ['Expert'] },
  olivia: { realm: [], client: [] },
  noah: { realm: [], client: [] },
};
const passwordOf = (login) => `${login}-demo`;
const CLIENT_ID = args['client-id'];
// The access tokens' resource server: its audience is what production's services accept
// (production.md §1.3: `master-realm` or `account`).
const API_RESOURCE = 'urn:larder:api';
const AUDIENCE = 'account';

function claimsOf(login) {
  const user = USERS[login];
  return {
    sub: `user:${login}`,
    preferred_username: login,
    realm_access: { roles: [...user.realm, 'offline_access', 'uma_authorization'] },
    resource_access: {
      [CLIENT_ID]: { roles: user.client },
      account: { roles: ['manage-account', 'view-profile'] },
    },
  };
}
const loginOf = (sub) => {
  const login = String(sub).replace(/^user:/, '');
  return Object.hasOwn(USERS, login) ? login : undefined;
};

// Keys made at each start: RS256 (Keycloak's default) first, ES256 beside it.
const rsa = await generateKeyPair('RS256', { extractable: true });
const ec = await generateKeyPair('ES256', { extractable: true });
const jwks = {
  keys: [
    { ...(await exportJWK(rsa.privateKey)), kid: 'rs-1', alg: 'RS256', use: 'sig' },
    { ...(await exportJWK(ec.privateKey)), kid: 'es-1', alg: 'ES256', use: 'sig' },
  ],
};

const server = http.createServer();
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(Number(args.port), args.host, resolve);
});
const issuer = `http://${args['public-host']}:${server.address().port}`;
const consoles = args.console.map((c) => new URL(c).href);

const provider = new Provider(issuer, {
  jwks,
  clients: [{
    client_id: CLIENT_ID,
    token_endpoint_auth_method: 'none', // a public client: PKCE is then required
    application_type: 'web',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: consoles, // matched exactly (Keycloak also allows a trailing `*`)
    post_logout_redirect_uris: consoles,
  }],
  pkce: { required: () => true }, // S256 only: v9 has no `plain`
  scopes: ['openid', 'profile', 'offline_access', 'roles'],
  claims: { openid: ['sub'], profile: ['preferred_username'] },
  async findAccount(ctx, sub) {
    const login = loginOf(sub);
    if (!login) return undefined;
    return { accountId: sub, claims: async () => claimsOf(login) };
  },
  // Keycloak gives every code exchange a refresh token tied to the SSO session; oidc-provider
  // does only for `offline_access` (which also needs prompt=consent) unless told.
  issueRefreshToken: async (ctx, client) => client.grantTypeAllowed('refresh_token'),
  // A first-party client: no consent screen, as in a realm with consent off (without this,
  // prompt=none answers consent_required). A grant revoked by a replayed code or refresh token
  // is made anew, or every later prompt=none would fail.
  async loadExistingGrant(ctx) {
    const grantId = ctx.oidc.result?.consent?.grantId
      || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    const existing = grantId && await ctx.oidc.provider.Grant.find(grantId);
    if (existing) return existing;
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope('openid profile offline_access roles');
    grant.addResourceScope(API_RESOURCE, 'roles');
    await grant.save();
    return grant;
  },
  // Keycloak's roles are claims of its access token (oidc-provider cannot change `sub` here).
  async extraTokenClaims(ctx, token) {
    if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
    const login = loginOf(token.accountId);
    if (!login) return undefined;
    const { sub, ...claims } = claimsOf(login);
    return { ...claims, azp: token.clientId, typ: 'Bearer' };
  },
  features: {
    devInteractions: { enabled: false }, // the form below checks passwords
    rpInitiatedLogout: {
      enabled: true,
      // oidc-provider asks "Do you want to sign-out?"; Keycloak skips that with id_token_hint.
      // `logout=yes` ends the whole session (without it only this client's part ends, and
      // prompt=none would still find the person signed in).
      async logoutSource(ctx, form) {
        const whole = form.replace('</form>', '<input type="hidden" name="logout" value="yes"></form>');
        ctx.body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Signing out</title></head><body>${whole}
          <script>document.forms[0].submit()</script><noscript><button form="op.logoutForm">Sign out</button></noscript></body></html>`;
      },
    },
    // Without a resource server access tokens are opaque; with one they are signed JWTs.
    resourceIndicators: {
      enabled: true,
      defaultResource: async () => API_RESOURCE,
      useGrantedResource: async () => true,
      getResourceServerInfo: async (ctx, resource) => {
        if (resource !== API_RESOURCE) throw new errors.InvalidTarget();
        return {
          scope: 'roles',
          audience: AUDIENCE,
          accessTokenTTL: Number(args['access-ttl']),
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: args['at-alg'] } },
        };
      },
    },
  },
  // The consoles' origins may call the token endpoint (Keycloak's "Web origins").
  clientBasedCORS: (ctx, origin, client) => client.redirectUris.some((u) => new URL(u).origin === origin),
  ttl: {
    AccessToken: Number(args['access-ttl']),
    AuthorizationCode: 60,
    IdToken: 3600,
    RefreshToken: 1800,
    Session: 36000,
    Interaction: 600,
    Grant: 36000,
  },
  cookies: { keys: ['journeys-only-cookie-key'] },
  renderError: async (ctx, out) => {
    ctx.type = 'html';
    ctx.body = page('Error', `<p>${escape(out.error)}</p><p>${escape(out.error_description ?? '')}</p>`);
  },
});
provider.proxy = false;
// The in-memory adapter's warning and the runtime's are expected here; errors still show.
provider.on('server_error', (ctx, error) => console.error('provider error:', error));

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
function page(title, body) {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body><main><h1>${escape(title)}</h1>${body}</main></body></html>`;
}
function loginForm(uid, error = '') {
  return page('Sign in to the identity provider', `${error ? `<p role="alert">${escape(error)}</p>` : ''}
    <form method="post" action="/interaction/${escape(uid)}/login">
      <label>Username <input name="login" autocomplete="username" required></label>
      <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
      <button type="submit">Sign in</button>
    </form>`);
}
async function readBody(req) {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 65536) throw new Error('body too large');
  }
  return body;
}

async function sign(req, res) {
  const { claims, alg = 'RS256', key = 'own', header = {} } = JSON.parse((await readBody(req)) || '{}');
  if (!['RS256', 'ES256'].includes(alg) || !['own', 'foreign'].includes(key)) {
    res.writeHead(400, { 'content-type': 'text/plain' });
    return res.end('alg is RS256 or ES256; key is own or foreign');
  }
  const kid = alg === 'ES256' ? 'es-1' : 'rs-1';
  const signingKey = key === 'own'
    ? (alg === 'ES256' ? ec.privateKey : rsa.privateKey)
    : (await generateKeyPair(alg)).privateKey;
  const jwt = await new SignJWT(claims).setProtectedHeader({ alg, kid, ...header }).sign(signingKey);
  res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
  return res.end(jwt);
}

// RP-initiated logout by POST, as Keycloak takes it. oidc-provider 9 serves POST on its end-session
// endpoint only with `enableHttpPostMethods`, which needs SameSite=None cookies, which browsers
// keep only when Secure, which plain http cannot be. And a cross-site POST carries no SameSite=Lax
// cookie, so the provider would not know whose session to end (Keycloak's session cookie is
// SameSite=None; Secure). So the POST is relayed: a page of the provider's own origin posts the
// same fields to itself (a same-site request, which carries the session cookie), and that request
// is handed to oidc-provider as its GET. The ID token never appears in the browser's URLs.
const END_SESSION = '/session/end';
const RELAY = '/session/end/relay';
function relayPage(form) {
  const inputs = [...form].map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`).join('');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Signing out</title></head><body>
    <form method="post" action="${RELAY}">${inputs}<noscript><button type="submit">Sign out</button></noscript></form>
    <script>document.forms[0].submit()</script></body></html>`;
}

const callback = provider.callback();
server.on('request', async (req, res) => {
  try {
    if (args['sign-endpoint'] && req.method === 'POST' && req.url === '/_test/sign') {
      return await sign(req, res);
    }
    if (req.method === 'POST' && req.url === END_SESSION) {
      const form = new URLSearchParams(await readBody(req));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return res.end(relayPage(form));
    }
    if (req.method === 'POST' && req.url === RELAY) {
      const form = new URLSearchParams(await readBody(req));
      req.method = 'GET';
      req.url = `${END_SESSION}?${form}`;
      return callback(req, res);
    }
    const match = req.url.match(/^\/interaction\/([\w-]+)(\/login)?$/);
    if (!match) return callback(req, res);
    const details = await provider.interactionDetails(req, res);
    if (match[2] && req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      const login = form.get('login')?.trim() ?? '';
      if (!Object.hasOwn(USERS, login) || form.get('password') !== passwordOf(login)) {
        res.writeHead(401, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        return res.end(loginForm(details.uid, 'Invalid username or password.'));
      }
      return await provider.interactionFinished(req, res, { login: { accountId: `user:${login}` } }, { mergeWithLastSubmission: false });
    }
    if (details.prompt.name !== 'login') {
      // Consent is granted by loadExistingGrant; any other prompt finishes as it is.
      return await provider.interactionFinished(req, res, {}, { mergeWithLastSubmission: true });
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    return res.end(loginForm(details.uid));
  } catch (error) {
    if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
    return res.end(String(error?.message ?? error));
  }
});

// Stopped by its parent (SIGTERM or SIGINT): close at once, sessions are in memory only.
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
console.log(`OIDC_ISSUER=${issuer}`);
