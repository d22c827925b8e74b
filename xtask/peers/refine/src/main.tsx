// A minimal Refine login app, the JavaScript admin `cargo xtask bench` measures beside Larder's
// console and the static floor page. Refine's headless AuthPage (from @refinedev/core) on an
// authProvider that signs in the way the console does: POST system/login with
// {username, password}, the token from `result.access_token` (production, Keycloak's answer) or
// `result.token` (the reference server), held in memory only.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import {
  AuthPage,
  Authenticated,
  Refine,
  useGetIdentity,
  useLogout,
  type AuthProvider,
} from "@refinedev/core";

/** The bearer token: in this module's memory, never in storage, cookies or URLs. */
let token: string | null = null;
/** The name signed in with, for when ping does not say who the caller is (production). */
let signedInAs = "";

/** The API beside the page (larder-server serves both). */
const api = (path: string) => new URL(`/api/v1/${path}`, location.origin).href;

/** The answer's JSON, or null when it is not JSON (a proxy's error page, say). */
async function json(answer: Response): Promise<any> {
  try {
    return await answer.json();
  } catch {
    return null;
  }
}

const authProvider: AuthProvider = {
  // Refine's headless form calls its first field "email"; Larder's accounts have usernames.
  login: async ({ email, password }) => {
    const answer = await fetch(api("system/login"), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: email, password }),
    }).catch(() => null);
    const body = answer && (await json(answer));
    const value = body?.result?.access_token ?? body?.result?.token;
    if (!answer?.ok || typeof value !== "string") {
      const message = body?.detail ?? body?.message ?? (answer ? `HTTP ${answer.status}` : "No answer");
      return { success: false, error: { name: "Sign-in failed", message: String(message) } };
    }
    token = value;
    signedInAs = email;
    return { success: true };
  },
  logout: async () => {
    token = null;
    return { success: true };
  },
  check: async () => ({ authenticated: token !== null }),
  onError: async () => ({}),
  // Ping with the token: proof that the service accepts it.
  getIdentity: async () => {
    const answer = await fetch(api("system/ping"), { headers: { Authorization: `Bearer ${token}` } });
    if (!answer.ok) return null;
    const result = (await json(answer))?.result;
    return { name: (typeof result === "object" && result?.username) || signedInAs };
  },
};

function SignedIn() {
  const { data: identity } = useGetIdentity<{ name: string }>();
  const { mutate: logout } = useLogout();
  return (
    <main>
      <h1>{identity ? `Signed in as ${identity.name}` : "Signing in…"}</h1>
      <button type="button" onClick={() => logout()}>
        Sign out
      </button>
    </main>
  );
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    {/* Telemetry off: it would send a request to telemetry.refine.dev, outside the page's
        sign-in and unreachable from the bench machine. */}
    <Refine authProvider={authProvider} options={{ disableTelemetry: true }}>
      <Authenticated key="home" fallback={<AuthPage type="login" />}>
        <SignedIn />
      </Authenticated>
    </Refine>
  </StrictMode>,
);
