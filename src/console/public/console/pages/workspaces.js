// @ts-check
import { api, query } from "../lib/api.js";
import { fail, field, h, replace, shortHash, table, when } from "../lib/dom.js";

/**
 * Workspaces (#/workspaces/<workspace_id>): readiness with its checks (POST /v1/workspace/readiness),
 * the handoff chain drawn as a chain with its integrity (GET /v1/handoff/chain/{id}?verify=full), and
 * the audit log with filters and paging (GET /v1/audit/events). The API has no list of workspaces,
 * so the picker offers the workspace ids found in the audit log, and any id can be typed in.
 * @param {HTMLElement} view
 * @param {string} workspaceId
 */
export async function render(view, workspaceId) {
  const { json: recent } = await api(`/v1/audit/events${query({ limit: 200 })}`);
  /** @type {string[]} */
  const known = [...new Set(recent.data.map((/** @type {{workspace_id: string}} */ e) => e.workspace_id).filter(Boolean))];
  const idInput = h("input", { type: "text", name: "workspace_id", list: "known-workspaces", value: workspaceId, spellcheck: "false", required: true });
  const pick = h(
    "form",
    { class: "row" },
    field("Workspace id", idInput),
    h("datalist", { id: "known-workspaces" }, known.map((w) => h("option", { value: w }))),
    h("button", { type: "submit" }, "Open"),
  );
  pick.addEventListener("submit", (ev) => {
    ev.preventDefault();
    location.hash = `#/workspaces/${encodeURIComponent(idInput.value.trim())}`;
  });
  replace(
    view,
    h("h1", {}, workspaceId ? `Workspace ${workspaceId}` : "Workspaces"),
    pick,
    known.length ? h("p", {}, "In your audit log: ", known.map((w, i) => [i ? ", " : "", h("a", { href: `#/workspaces/${encodeURIComponent(w)}` }, w)])) : h("p", { class: "muted" }, "No workspace in your audit log yet."),
  );
  if (!workspaceId) {
    view.append(auditSection(""));
    return;
  }
  const chainBox = h("section", { "aria-labelledby": "chain-h" });
  view.append(chainBox, readinessSection(workspaceId), auditSection(workspaceId));
  await showChain(chainBox, workspaceId);
}

/** @param {HTMLElement} box @param {string} ws */
async function showChain(box, ws) {
  const { json: chain } = await api(`/v1/handoff/chain/${encodeURIComponent(ws)}${query({ verify: "full", limit: 200 })}`);
  const v = chain.verification;
  const broken = v.first_broken_index;
  /** @type {any[]} */
  const entries = chain.data;
  const state = v.ok
    ? h("div", { class: "notice", id: "chain-state" }, h("strong", { class: "ok" }, `✓ Chain intact: ${v.n} entries verified`), v.signing_enabled ? " (hash links and Ed25519 signatures)" : " (hash links; signing is off)")
    : h(
        "div",
        { class: "notice bad", id: "chain-state", role: "alert" },
        h("strong", { class: "bad" }, `✗ Chain broken at entry ${broken}`),
        h("ul", {}, v.reasons.map((/** @type {string} */ r) => h("li", {}, r))),
      );
  replace(
    box,
    h("h2", { id: "chain-h" }, `Handoff chain (${chain.count})`),
    state,
    entries.length
      ? h(
          "ol",
          { class: "chain", "aria-label": "Handoff chain, oldest first" },
          entries.map((e, i) => {
            const bad = broken !== null && i >= broken;
            return h(
              "li",
              { class: bad ? "broken" : null },
              h(
                "div",
                { class: `link${bad ? " broken" : ""}${i === broken ? " first-broken" : ""}`, "aria-label": `Entry ${e.seq}${i === broken ? ", chain breaks here" : bad ? ", after the break" : ", verified"}` },
                h("div", { class: "seq" }, `#${e.seq} `, i === broken ? h("span", { class: "bad" }, "breaks here") : bad ? h("span", { class: "bad" }, "unverified") : h("span", { class: "ok" }, "✓")),
                h("div", {}, e.objective),
                h("div", { class: "muted" }, `${e.from_tool ?? "?"} → ${e.to_tool ?? "?"}`),
                h("div", {}, `risk ${e.risk?.tier ?? "?"} (${e.risk?.score ?? "?"})`, e.signed ? " · signed" : " · unsigned"),
                h("div", {}, shortHash(e.hash)),
              ),
            );
          }),
        )
      : h("p", { class: "muted" }, "No handoffs in this workspace."),
    chain.has_more ? h("p", { class: "muted" }, "Showing the first 200 entries; the verification covers the whole chain.") : null,
  );
}

/** @param {string} ws */
function readinessSection(ws) {
  const manifest = h("textarea", { name: "manifest", rows: 8, spellcheck: "false" });
  manifest.value = JSON.stringify({ workspace_id: ws, project_name: ws, stack: [], protected_paths: [], forbidden_commands: [], require_handoffs: true, require_risk_gate: true }, null, 2);
  const out = h("div", { "aria-live": "polite" });
  const form = h("form", {}, field("Workspace manifest (JSON, SPEC.md 2.6)", manifest), h("button", { type: "submit" }, "Score readiness"), out);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    let body;
    try {
      body = JSON.parse(manifest.value);
    } catch (e) {
      replace(out, h("p", { class: "error", role: "alert" }, `Not JSON: ${/** @type {Error} */ (e).message}`));
      return;
    }
    try {
      const { json: r } = await api("/v1/workspace/readiness", { body });
      replace(
        out,
        h("p", {}, h("strong", {}, `Score ${r.score}/100 (${r.rating})`), " ", h("meter", { min: 0, max: 100, low: 50, high: 80, optimum: 100, value: r.score, "aria-label": "Readiness score" })),
        table(
          ["Check", "Weight", "Passed"],
          r.checks.map((/** @type {any} */ c) => [c.label, String(c.weight), c.passed ? h("span", { class: "ok" }, "✓ yes") : h("span", { class: "bad" }, "✗ no")]),
          "Readiness checks",
        ),
        r.recommendations.length ? [h("h3", {}, "Recommendations"), h("ul", {}, r.recommendations.map((/** @type {any} */ x) => h("li", {}, h("strong", {}, x.label), `: ${x.rec}`)))] : null,
      );
    } catch (e) {
      replace(out, h("p", { class: "error", role: "alert" }, /** @type {Error} */ (e).message));
    }
  });
  return h("section", {}, h("h2", {}, "Readiness"), h("p", {}, "Scoring a manifest also stores it as this workspace's policy."), form);
}

/** @param {string} ws */
function auditSection(ws) {
  const type = h("select", { name: "event_type" }, ["", "policy_check", "handoff_created", "agent_plan", "agent_record"].map((t) => h("option", { value: t }, t || "any")));
  const decision = h("select", { name: "decision" }, ["", "allow", "deny", "confirm", "approve"].map((t) => h("option", { value: t }, t || "any")));
  const since = h("input", { type: "datetime-local", name: "since" });
  const until = h("input", { type: "datetime-local", name: "until" });
  const out = h("div", { "aria-live": "polite" });
  /** Cursors of the pages shown so far: back is the one before. @type {(string | undefined)[]} */
  let cursors = [undefined];
  const iso = (/** @type {HTMLInputElement} */ i) => (i.value ? new Date(i.value).toISOString() : undefined);

  async function load() {
    const cursor = cursors.at(-1);
    const { json } = await api(`/v1/audit/events${query({ workspace_id: ws, event_type: type.value, decision: decision.value, since: iso(since), until: iso(until), limit: 20, cursor })}`);
    const prev = h("button", { type: "button", class: "secondary", disabled: cursors.length < 2 }, "Newer");
    const next = h("button", { type: "button", class: "secondary", disabled: !json.has_more }, "Older");
    prev.addEventListener("click", () => {
      cursors.pop();
      load().catch((e) => fail(out, e));
    });
    next.addEventListener("click", () => {
      cursors.push(json.next_cursor);
      load().catch((e) => fail(out, e));
    });
    replace(
      out,
      json.data.length
        ? table(
            ["Time", "Type", "Workspace", "Actor", "Decision", "Id"],
            json.data.map((/** @type {any} */ e) => [when(e.created_at), e.event_type, e.workspace_id, e.actor, e.decision ? `${e.decision} (${e.risk_tier} ${e.risk_score})` : "", h("span", { class: "mono" }, e.id)]),
            "Audit events",
          )
        : h("p", { class: "muted" }, "No events match."),
      h("div", { class: "pager" }, prev, next, h("span", { class: "muted" }, `page ${cursors.length}`)),
    );
  }
  const form = h("form", { class: "row" }, field("Event type", type), field("Decision", decision), field("Since", since), field("Until", until), h("button", { type: "submit" }, "Filter"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    cursors = [undefined];
    load().catch((e) => fail(out, e));
  });
  load().catch((e) => fail(out, e));
  return h("section", {}, h("h2", {}, ws ? "Audit log of this workspace" : "Audit log"), form, out);
}
