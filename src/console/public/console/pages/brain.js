// @ts-check
import { api } from "../lib/api.js";
import { fail, field, h, replace, table, usd, when } from "../lib/dom.js";

const EXAMPLE = `# BRAIN.md

\`\`\`yaml
max_cost: 0.02            # USD, worst case per request
fallback:
  - claude-haiku-4-5
rules:
  - when: {signal: code}
    model: claude-sonnet-4-6
  - when: {max_chars: 40}
    mode: agility
\`\`\`
`;

/**
 * Brain configs: an editor validated as you type (POST /v1/brain/validate), a route preview of a
 * prompt under the config (POST /v1/route), sharing (POST /v1/brain/share, GET /v1/brain/shares),
 * and the badge (GET /v1/brain/badge) with the Markdown that embeds it.
 * @param {HTMLElement} view
 */
export async function render(view) {
  const editor = h("textarea", { name: "brain_md", rows: 11, spellcheck: "false", "aria-describedby": "brain-status" });
  editor.value = EXAMPLE;
  const status = h("div", { id: "brain-status", "aria-live": "polite" });
  const prompt = h("input", { type: "text", name: "prompt", value: "Write a SQL migration that adds an index" });
  const routeOut = h("div", { "aria-live": "polite" });
  const title = h("input", { type: "text", name: "title", maxlength: 120, value: "" });
  const shareOut = h("div", { "aria-live": "polite" });
  const sharesBox = h("div");
  /** The config as validate last normalised it (what route and share use). @type {any} */
  let config = null;
  /** The model the last route preview chose, for the badge. */
  let routedModel = "";

  const routeForm = h("form", { class: "row" }, field("Prompt to route", prompt), h("button", { type: "submit" }, "Preview route"));
  const shareForm = h("form", { class: "row" }, field("Title (optional)", title), h("button", { type: "submit" }, "Share"));
  replace(
    view,
    h("h1", {}, "Brain configs"),
    field("BRAIN.md (validated as you type)", editor),
    status,
    h("h2", {}, "Route preview"),
    h("p", {}, "Which model a prompt would get under this config; no model is called."),
    routeForm,
    routeOut,
    h("h2", {}, "Share"),
    shareForm,
    shareOut,
    h("h2", {}, "Your shared configs"),
    sharesBox,
  );

  let seq = 0;
  async function validate() {
    const mine = ++seq;
    try {
      const { json: v } = await api("/v1/brain/validate", { body: { brain_md: editor.value }, auth: false });
      if (mine !== seq) return; // a later keystroke's answer wins
      config = v.valid ? v.config : null;
      editor.setAttribute("aria-invalid", String(!v.valid));
      replace(
        status,
        v.valid ? h("p", { class: "ok" }, "✓ Valid") : h("p", { class: "bad" }, `✗ ${v.errors.length} error${v.errors.length === 1 ? "" : "s"}`),
        v.errors.length ? h("ul", { class: "error" }, v.errors.map((/** @type {string} */ e) => h("li", {}, e))) : null,
        v.warnings.length ? h("ul", { class: "warn" }, v.warnings.map((/** @type {string} */ w) => h("li", {}, `warning: ${w}`))) : null,
      );
    } catch (e) {
      if (mine === seq) fail(status, e);
    }
  }
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  editor.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => void validate(), 250);
  });

  routeForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const { json: r } = await api("/v1/route", { body: { messages: [{ role: "user", content: prompt.value }], ...(config ? { brain_config: config } : {}) } });
      const x = r.svc.routing;
      routedModel = r.model;
      replace(
        routeOut,
        h("dl", { class: "kv", id: "route-result" }, h("dt", {}, "Model"), h("dd", {}, `${x.model_display} (${r.model})`), h("dt", {}, "Provider"), h("dd", {}, x.provider), h("dt", {}, "Mode / tier"), h("dd", {}, `${x.mode} / ${x.tier}`), h("dt", {}, "Reason"), h("dd", {}, x.reason), h("dt", {}, "Worst-case cost"), h("dd", {}, usd(r.svc.estimated_cost.total_usd))),
        config ? null : h("p", { class: "warn" }, "The config is not valid, so the preview ran without it."),
      );
    } catch (e) {
      fail(routeOut, e);
    }
  });

  shareForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const { json: sh } = await api("/v1/brain/share", { body: { brain_md: editor.value, ...(title.value.trim() ? { title: title.value } : {}) } });
      const model = routedModel || sh.config?.model || "";
      const badge = `${location.origin}/v1/brain/badge?model=${encodeURIComponent(model)}`;
      const markdown = `[![BRAIN.md](${badge})](${sh.short_url})`;
      const md = h("textarea", { readonly: true, rows: 2, id: "badge-md", class: "mono" });
      md.value = markdown;
      replace(
        shareOut,
        h("div", { class: "notice", role: "status" }, h("p", {}, "Shared: ", h("a", { href: sh.url }, sh.url), " (short ", h("a", { href: sh.short_url }, sh.short_url), ")", sh.valid ? "" : h("span", { class: "warn" }, " — shared with errors"))),
        h("p", {}, h("img", { src: badge, alt: `BRAIN.md badge: ${model || "unknown model"}` })),
        field("Markdown to embed the badge", md),
        model ? null : h("p", { class: "muted" }, "Preview a route first to put its model on the badge."),
      );
      await loadShares();
    } catch (e) {
      fail(shareOut, e);
    }
  });

  async function loadShares() {
    const { json } = await api("/v1/brain/shares");
    replace(
      sharesBox,
      json.data.length
        ? table(["Share", "Title", "Created"], json.data.map((/** @type {any} */ s) => [h("a", { href: s.url }, s.share_id), s.title ?? "", when(new Date(s.created_at * 1000).toISOString())]), "Shared configs")
        : h("p", { class: "muted" }, "None yet."),
    );
  }
  await Promise.all([validate(), loadShares().catch((e) => fail(sharesBox, e))]);
}
