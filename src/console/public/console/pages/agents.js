// @ts-check
import { api, query } from "../lib/api.js";
import { fail, field, h, replace, shortHash, table, usd, when } from "../lib/dom.js";

/**
 * Agents: the owner's runs (GET /v1/agent/runs); a run's trajectory (#/agents/<run_id>,
 * GET /v1/agent/{id}/trajectory?full=true) with each step's model, cost and hashes; Verify sends the
 * bundle to the public POST /v1/agent/verify. Any bundle can be pasted and verified too.
 * @param {HTMLElement} view
 * @param {string} runId
 */
export async function render(view, runId) {
  if (runId) return renderRun(view, runId);
  const { json } = await api(`/v1/agent/runs${query({ limit: 50 })}`);
  replace(
    view,
    h("h1", {}, "Agents"),
    h("h2", {}, `Runs (${json.count})`),
    json.data.length
      ? table(
          ["Run", "Goal", "Status", "Steps", "Cost", "Cap", "Created"],
          json.data.map((/** @type {any} */ r) => [h("a", { href: `#/agents/${encodeURIComponent(r.run_id)}`, class: "mono" }, r.run_id), r.goal, r.status, String(r.steps_taken), usd(r.cost_consumed_usd), usd(r.max_cost_usd), when(r.created_at)]),
          "Agent runs",
        )
      : h("p", { class: "muted" }, "No agent runs yet (POST /v1/agent/run)."),
    verifyBundleSection(),
  );
}

/** @param {HTMLElement} view @param {string} runId */
async function renderRun(view, runId) {
  const { json: t } = await api(`/v1/agent/${encodeURIComponent(runId)}/trajectory${query({ full: "true" })}`);
  const result = h("div", { "aria-live": "polite", id: "verify-result" });
  const verify = h("button", { type: "button", id: "verify-run" }, "Verify");
  verify.addEventListener("click", async () => {
    verify.disabled = true;
    try {
      const { json: v } = await api("/v1/agent/verify", { body: t.verify_request, auth: false });
      replace(result, verdict(v));
    } catch (e) {
      fail(result, e);
    } finally {
      verify.disabled = false;
    }
  });
  const sv = t.verification;
  replace(
    view,
    h("p", {}, h("a", { href: "#/agents" }, "← All runs")),
    h("h1", {}, `Run ${runId}`),
    h("dl", { class: "kv" }, h("dt", {}, "Status"), h("dd", {}, t.status), h("dt", {}, "Trajectory proof"), h("dd", {}, shortHash(t.trajectory_proof)), h("dt", {}, "Server re-verification"), h("dd", {}, sv.valid ? h("span", { class: "ok" }, `✓ valid (${sv.n_steps} steps)`) : h("span", { class: "bad" }, `✗ invalid, steps ${sv.mismatched_steps.join(", ")}`))),
    h("h2", {}, `Trajectory (${t.steps.length} steps)`),
    table(
      ["#", "Role", "Model", "Intensity", "Strategy", "Cost", "Confidence", "Input hash", "Output hash", "Step proof"],
      t.steps.map((/** @type {any} */ s) => [String(s.index), s.role, s.model, s.intensity, s.strategy, usd(s.cost_usd), s.confidence.toFixed(2), shortHash(s.input_hash), shortHash(s.output_hash), shortHash(s.step_proof)]),
      "Trajectory steps",
    ),
    h("h2", {}, "Verify"),
    h("p", {}, "Replays the bundle on the public verifier (POST /v1/agent/verify): recomputes every step proof and the root."),
    verify,
    result,
    h("details", {}, h("summary", {}, "The bundle (verify it anywhere)"), h("pre", {}, JSON.stringify(t.verify_request, null, 2))),
  );
}

/** @param {{valid: boolean, recomputed_proof: string, mismatched_steps: number[]}} v */
function verdict(v) {
  return v.valid
    ? h("div", { class: "notice" }, h("strong", { class: "ok" }, "✓ Valid: the trajectory proof recomputes"), h("p", {}, "Recomputed ", shortHash(v.recomputed_proof)))
    : h("div", { class: "notice bad", role: "alert" }, h("strong", { class: "bad" }, "✗ Invalid"), h("p", {}, v.mismatched_steps.length ? `Tampered steps: ${v.mismatched_steps.join(", ")}` : "The root does not match."), h("p", {}, "Recomputed ", shortHash(v.recomputed_proof)));
}

function verifyBundleSection() {
  const text = h("textarea", { name: "bundle", rows: 8, spellcheck: "false" });
  const out = h("div", { "aria-live": "polite" });
  const form = h("form", {}, field("Trajectory bundle (JSON: run_id, trajectory_proof, steps, step_proofs…)", text), h("button", { type: "submit" }, "Verify bundle"), out);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const { json: v } = await api("/v1/agent/verify", { body: JSON.parse(text.value), auth: false });
      replace(out, verdict(v));
    } catch (e) {
      fail(out, e);
    }
  });
  return h("section", {}, h("h2", {}, "Verify a bundle"), form);
}
