// @ts-check
import { api, session } from "../lib/api.js";
import { h, replace, table, when } from "../lib/dom.js";

/**
 * Keys: the owner-scoped key endpoints (GET/POST /v1/keys, DELETE /v1/keys/{id},
 * POST /v1/keys/{id}/rotate). A new secret is shown once, here, and never again.
 * @param {HTMLElement} view
 */
export async function render(view) {
  const secretBox = h("div", { "aria-live": "polite" });
  const listBox = h("div");
  const create = h("button", { type: "button", id: "create-key" }, "Create key");
  replace(
    view,
    h("h1", {}, "Keys"),
    h("p", {}, "Keys of your account. A new key gets your plan; its secret is shown once. Revoking a key stops it everywhere within a second."),
    create,
    secretBox,
    listBox,
  );

  /** @param {string} title @param {{key: string, prefix: string}} made */
  function showSecret(title, made) {
    const out = h("input", { type: "text", readonly: true, value: made.key, id: "new-key-secret", class: "mono", "aria-describedby": "new-key-note" });
    replace(
      secretBox,
      h(
        "div",
        { class: "notice", role: "status" },
        h("h2", {}, title),
        h("label", { for: "new-key-secret" }, "Secret key"),
        out,
        " ",
        h("button", { type: "button", class: "secondary", onclick: () => navigator.clipboard?.writeText(made.key) }, "Copy"),
        h("p", { id: "new-key-note" }, "Store it now: it is not shown again."),
      ),
    );
    out.select();
  }

  async function load() {
    const { json } = await api("/v1/keys");
    /** @type {any[]} */
    const keys = json.data;
    replace(
      listBox,
      h("h2", {}, `Your keys (${keys.filter((k) => !k.revoked_at).length} active)`),
      table(
        ["Prefix", "Plan", "Created", "Last used", "Status", "Actions"],
        keys.map((k) => [
          h("span", { class: "mono" }, `${k.prefix}…`, k.current ? h("strong", {}, " (this session)") : null),
          k.plan,
          when(k.created_at),
          when(k.last_used_at),
          k.revoked_at ? h("span", { class: "bad" }, `revoked ${when(k.revoked_at)}`) : h("span", { class: "ok" }, "active"),
          k.revoked_at
            ? ""
            : h(
                "span",
                { class: "actions" },
                h("button", { type: "button", class: "secondary", "aria-label": `Rotate key ${k.prefix}`, onclick: () => void rotate(k) }, "Rotate"),
                h("button", { type: "button", class: "danger", "aria-label": `Revoke key ${k.prefix}`, onclick: () => void revoke(k) }, "Revoke"),
              ),
        ]),
        "API keys",
      ),
    );
  }

  /** @param {{id: string, prefix: string, current: boolean}} k */
  async function revoke(k) {
    if (!confirm(`Revoke ${k.prefix}…? Clients using it get 401 within a second.${k.current ? " This is the key of this session: you will be signed out." : ""}`)) return;
    await api(`/v1/keys/${encodeURIComponent(k.id)}`, { method: "DELETE" });
    if (k.current) {
      session.clear();
      location.reload();
      return;
    }
    replace(secretBox, h("p", { role: "status" }, `Revoked ${k.prefix}…`));
    await load();
  }

  /** @param {{id: string, prefix: string, current: boolean}} k */
  async function rotate(k) {
    if (!confirm(`Rotate ${k.prefix}…? A new key is created and this one revoked.`)) return;
    const { json } = await api(`/v1/keys/${encodeURIComponent(k.id)}/rotate`, { method: "POST", body: {} });
    // Rotating the session's own key moves the session to the new key.
    if (k.current) session.set(json.key);
    showSecret(`Rotated: new key ${json.prefix}…, ${k.prefix}… revoked`, json);
    await load();
  }

  create.addEventListener("click", async () => {
    create.disabled = true;
    try {
      const { json } = await api("/v1/keys", { method: "POST", body: {} });
      showSecret(`New key ${json.prefix}… (${json.plan})`, json);
      await load();
    } catch (e) {
      replace(secretBox, h("p", { class: "error", role: "alert" }, String(/** @type {Error} */ (e).message)));
    } finally {
      create.disabled = false;
    }
  });
  await load();
}
