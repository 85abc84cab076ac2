// @ts-check
import { api, ApiError, session, whenUnauthorized } from "./lib/api.js";
import { h, replace } from "./lib/dom.js";

/**
 * The console shell: sign-in, a hash router (#/page/arg), and one module per page, loaded when first
 * shown. Each page exports `render(main, arg)` and builds its view from the public API only.
 */
const PAGES = {
  overview: "Overview",
  requests: "Requests",
  keys: "Keys",
  workspaces: "Workspaces",
  agents: "Agents",
  brain: "Brain configs",
  compliance: "Compliance",
};

const main = /** @type {HTMLElement} */ (document.getElementById("main"));
const nav = /** @type {HTMLElement} */ (document.getElementById("nav"));
const signout = /** @type {HTMLButtonElement} */ (document.getElementById("signout"));
const signinSection = /** @type {HTMLElement} */ (document.getElementById("signin"));

function showSignin(message = "") {
  nav.hidden = true;
  signout.hidden = true;
  replace(main, signinSection);
  /** @type {HTMLElement} */ (document.getElementById("signin-error")).textContent = message;
  /** @type {HTMLInputElement} */ (document.getElementById("signin-key")).focus();
}

whenUnauthorized((e) => {
  session.clear();
  showSignin(`Signed out: ${e.message}`);
});

/** @param {SubmitEvent} ev */
async function signIn(ev) {
  ev.preventDefault();
  const input = /** @type {HTMLInputElement} */ (document.getElementById("signin-key"));
  const error = /** @type {HTMLElement} */ (document.getElementById("signin-error"));
  const key = input.value.trim();
  error.textContent = "";
  session.set(key);
  try {
    // SPEC.md 5.7: a 200 from GET /v1/usage confirms the key.
    await api("/v1/usage");
    input.value = "";
    if (!location.hash || location.hash === "#/") location.hash = "#/overview";
    else route();
  } catch (e) {
    session.clear();
    error.textContent = e instanceof ApiError ? `${e.message} (${e.code})` : `Could not reach the API: ${e}`;
  }
}

async function route() {
  if (!session.key) return showSignin();
  nav.hidden = false;
  signout.hidden = false;
  const [, name = "overview", ...rest] = location.hash.replace(/^#\/?/, "/").split("/");
  const page = name in PAGES ? /** @type {keyof typeof PAGES} */ (name) : "overview";
  for (const a of nav.querySelectorAll("a")) {
    if (a.getAttribute("href") === `#/${page}`) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  document.title = `${PAGES[page]} · svc console`;
  const view = h("div", { "aria-busy": "true" }, h("h1", {}, PAGES[page]), h("p", { class: "muted" }, "Loading…"));
  replace(main, view);
  try {
    const mod = await import(`./pages/${page}.js`);
    await mod.render(view, rest.map(decodeURIComponent).join("/"));
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return;
    view.append(h("p", { class: "error", role: "alert" }, e instanceof ApiError ? `${e.message} (${e.code})` : String(e)));
  } finally {
    view.removeAttribute("aria-busy");
  }
  main.focus({ preventScroll: true });
}

document.getElementById("signin-form")?.addEventListener("submit", signIn);
signout.addEventListener("click", () => {
  session.clear();
  location.hash = "";
  showSignin();
});
window.addEventListener("hashchange", route);
route();
