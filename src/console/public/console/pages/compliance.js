// @ts-check
import { api } from "../lib/api.js";
import { fail, field, h, replace } from "../lib/dom.js";

const CLASSES = ["PII", "PHI", "FINANCIAL", "SECRETS"];
const SAMPLE = "Patient John Doe (DOB 1980-04-02, john.doe@example.com) was prescribed metformin 500 mg. Card 4111 1111 1111 1111.";

/** @param {string} v */
const list = (v) => v.split(",").map((x) => x.trim()).filter(Boolean);

/**
 * Compliance: a playground for POST /v2/compliance/preview. The service returns which classes it
 * detected and which kinds matched (never the matched text or its position), so the classes are
 * what is highlighted, each in its own colour, with the kinds that triggered it.
 * @param {HTMLElement} view
 */
export async function render(view) {
  const prompt = h("textarea", { name: "prompt", rows: 5 });
  prompt.value = SAMPLE;
  const block = CLASSES.map((c) => h("input", { type: "checkbox", name: "block", value: c, checked: c !== "SECRETS" }));
  const zero = h("input", { type: "checkbox", name: "zero_retention" });
  const deny = h("input", { type: "text", name: "deny", placeholder: "e.g. xai, deepseek" });
  const jurisdiction = h("input", { type: "text", name: "jurisdiction", placeholder: "e.g. US, EU" });
  const out = h("div", { "aria-live": "polite" });
  const form = h(
    "form",
    {},
    field("Prompt", prompt),
    h("fieldset", {}, h("legend", {}, "Block these data classes from providers not cleared for them"), block.map((b, i) => h("label", { class: "inline" }, b, CLASSES[i]))),
    h("label", { class: "inline" }, zero, "Require zero retention"),
    h("div", { class: "row" }, field("Provider denylist (comma-separated)", deny), field("Jurisdictions (comma-separated)", jurisdiction)),
    h("p", {}, h("button", { type: "submit" }, "Preview")),
  );
  replace(view, h("h1", {}, "Compliance"), h("p", {}, "A dry run of the compliance gate: no model is called and nothing is billed."), form, out);

  async function preview() {
    const compliance = {
      block_data_classes: block.filter((b) => b.checked).map((b) => b.value),
      ...(zero.checked ? { require_zero_retention: true } : {}),
      ...(list(deny.value).length ? { provider_denylist: list(deny.value) } : {}),
      ...(list(jurisdiction.value).length ? { jurisdiction: list(jurisdiction.value) } : {}),
    };
    const { json: r } = await api("/v2/compliance/preview", { body: { prompt: prompt.value, compliance } });
    /** @type {Record<string, string[]>} */
    const kinds = r.classification ?? {};
    replace(
      out,
      h("h2", {}, "Detected classes"),
      r.detected_classes.length
        ? h("ul", { class: "chips", id: "detected" }, r.detected_classes.map((/** @type {string} */ c) => h("li", { class: `chip ${c}` }, h("mark", {}, c), ` ${(kinds[c] ?? []).join(", ")}`)))
        : h("p", { id: "detected" }, "No sensitive class detected."),
      r.active
        ? [
            h("div", { class: r.ok ? "notice" : "notice bad" }, r.ok ? h("strong", { class: "ok" }, `✓ ${r.allowed_models.length} models may serve this prompt`) : h("strong", { class: "bad" }, "✗ The policy excludes every model")),
            r.compliance_cost_premium?.compliant_available
              ? h("p", {}, `Cheapest compliant: ${r.compliance_cost_premium.cheapest_compliant} (${r.compliance_cost_premium.compliant_min_usd_mtok} USD/Mtok); unrestricted ${r.compliance_cost_premium.cheapest_unrestricted} (${r.compliance_cost_premium.unrestricted_min_usd_mtok}); premium ${r.compliance_cost_premium.premium_pct}%`)
              : null,
            h("h3", {}, "Allowed models"),
            h("ul", { class: "chips" }, r.allowed_models.map((/** @type {string} */ m) => h("li", { class: "chip" }, m))),
            h("h3", {}, `Excluded models (${Object.keys(r.excluded_models).length})`),
            h("ul", {}, Object.entries(r.excluded_models).map(([m, why]) => h("li", {}, h("strong", {}, m), `: ${/** @type {string[]} */ (why).join("; ")}`))),
            r.sample_attestation ? h("p", {}, "Attestation ", h("span", { class: "mono" }, r.sample_attestation)) : null,
            h("p", { class: "muted" }, `Matrix ${r.matrix_version}`),
          ]
        : h("p", { class: "muted" }, r.note),
    );
  }
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    preview().catch((e) => fail(out, e));
  });
  await preview();
}
