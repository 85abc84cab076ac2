// @ts-check
import { api } from "../lib/api.js";
import { field, h, int, replace, shortHash, table, usd, when } from "../lib/dom.js";

/**
 * Requests: the recent calls GET /v1/usage returns (newest first), and a receipt view that asks
 * GET /v1/proof/{request_id} to verify the receipt (#/requests/<request_id>).
 * @param {HTMLElement} view
 * @param {string} requestId
 */
export async function render(view, requestId) {
  const receiptBox = h("section", { "aria-labelledby": "receipt-h", "aria-live": "polite" });
  const idInput = h("input", { type: "text", name: "request_id", value: requestId, spellcheck: "false" });
  const form = h("form", { class: "row" }, field("Request id", idInput), h("button", { type: "submit" }, "Verify receipt"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    location.hash = `#/requests/${encodeURIComponent(idInput.value.trim())}`;
  });
  const { json: usage } = await api("/v1/usage");
  /** @type {any[]} */
  const recent = usage.recent;
  replace(
    view,
    h("h1", {}, "Requests"),
    h("h2", {}, `Recent calls (${recent.length})`),
    recent.length
      ? table(
          ["Time", "Endpoint", "Model", "Mode", "Provider", "Tokens", "Cost", "Latency ms", "Fallback", "Receipt"],
          recent.map((r) => [
            when(r.created_at),
            r.endpoint,
            r.model,
            r.mode,
            r.provider,
            int(r.total_tokens),
            usd(r.cost_usd),
            int(r.latency_ms),
            r.fallback ? h("span", { class: "warn" }, "yes") : "no",
            h("a", { href: `#/requests/${encodeURIComponent(r.request_id)}` }, "Verify"),
          ]),
          "Recent calls",
        )
      : h("p", {}, "No calls yet."),
    h("h2", {}, "Verify a receipt"),
    form,
    receiptBox,
  );
  if (requestId) await showReceipt(receiptBox, requestId);
}

/** @param {HTMLElement} box @param {string} id */
async function showReceipt(box, id) {
  replace(box, h("h2", { id: "receipt-h" }, `Receipt ${id}`), h("p", { class: "muted" }, "Verifying…"));
  const { json: v } = await api(`/v1/proof/${encodeURIComponent(id)}`, { auth: false });
  const sig = v.signed ? (v.signature_valid ? h("span", { class: "ok" }, "valid Ed25519 signature") : h("span", { class: "bad" }, "signature does NOT verify")) : "unsigned (no signing key provisioned)";
  replace(
    box,
    h("h2", { id: "receipt-h" }, `Receipt ${id}`),
    h(
      "div",
      { class: v.valid ? "notice" : "notice bad", id: "receipt-result" },
      v.valid ? h("strong", { class: "ok" }, "✓ Verified: the receipt matches its proof hash") : h("strong", { class: "bad" }, "✗ NOT verified: the receipt does not match its proof"),
    ),
    h(
      "dl",
      { class: "kv" },
      h("dt", {}, "Proof hash"),
      h("dd", {}, shortHash(v.proof_hash)),
      h("dt", {}, "Recomputed"),
      h("dd", {}, shortHash(v.recomputed_proof_hash)),
      h("dt", {}, "Signature"),
      h("dd", {}, sig, v.signing_key_id ? ` (key ${v.signing_key_id})` : ""),
      h("dt", {}, "Public key"),
      h("dd", {}, h("a", { href: v.pubkey_endpoint }, v.pubkey_endpoint)),
    ),
    h("h3", {}, "Receipt"),
    h("pre", {}, JSON.stringify(v.receipt, null, 2)),
  );
}
