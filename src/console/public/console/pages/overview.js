// @ts-check
import { api, query } from "../lib/api.js";
import { barChart, dayChart } from "../lib/charts.js";
import { field, h, int, replace, usd } from "../lib/dom.js";

const DEFAULT_BASELINE = "gpt-5.2";

/** @param {string} label @param {import("../lib/dom.js").Child} value @param {import("../lib/dom.js").Child} [extra] */
const card = (label, value, extra) => h("div", { class: "card" }, h("div", { class: "label" }, label), h("div", { class: "value" }, value), extra ?? null);

/** @param {Record<string, {requests: number, tokens: number, cost_usd: number}>} groups */
const bars = (groups) => Object.entries(groups).map(([label, g]) => ({ label, value: g.cost_usd, text: `${usd(g.cost_usd)} · ${int(g.requests)} req` }));

/** Overview: plan and limits (GET /v1/usage), spend and savings (GET /v1/savings, /v1/usage/daily). @param {HTMLElement} view */
export async function render(view) {
  const [{ json: usage, headers }, { json: models }] = await Promise.all([api("/v1/usage"), api("/v1/models", { auth: false })]);
  const l = usage.limits;
  const rpm = Number(headers.get("x-ratelimit-limit") ?? l.rpm);
  const minuteLeft = Number(headers.get("x-ratelimit-remaining") ?? rpm);
  const daily = l.daily_requests === null ? "unlimited" : `${int(l.daily_requests_used)} of ${int(l.daily_requests)}`;

  const baseline = h("select", { id: "baseline", name: "baseline" }, models.data.map((/** @type {{id: string}} */ m) => h("option", { value: m.id, selected: m.id === DEFAULT_BASELINE }, m.id)));
  const savingsBox = h("div", { "aria-live": "polite" });

  replace(
    view,
    h("h1", {}, "Overview"),
    h(
      "section",
      { "aria-labelledby": "plan-h" },
      h("h2", { id: "plan-h" }, "Plan and limits"),
      h(
        "div",
        { class: "cards" },
        card("Plan", usage.plan_display, h("div", { class: "muted" }, `user ${usage.user_id}`)),
        card("Requests today (24 h)", daily, l.daily_requests === null ? null : h("meter", { min: 0, max: l.daily_requests, value: l.daily_requests_used, "aria-label": "Share of the daily limit used" })),
        card("This minute", `${int(rpm - minuteLeft)} of ${int(rpm)}`, h("meter", { min: 0, max: rpm, value: rpm - minuteLeft, "aria-label": "Share of the per-minute limit used" })),
        card("Models", l.model_access.type === "all" ? "all" : `${l.model_access.models.length} allowed`),
      ),
    ),
    h(
      "section",
      { "aria-labelledby": "spend-h" },
      h("h2", { id: "spend-h" }, "Spend and savings"),
      h("div", { class: "cards" }, card("Requests", int(usage.total_requests)), card("Tokens", int(usage.total_tokens)), card("Spend", usd(usage.total_cost_usd))),
      h("div", { class: "row" }, field("Savings baseline model", baseline)),
      savingsBox,
    ),
    h(
      "section",
      { "aria-labelledby": "break-h" },
      h("h2", { id: "break-h" }, "Where the spend went"),
      h("div", { class: "charts" }, barChart("By model", bars(usage.by_model)), barChart("By provider", bars(usage.by_provider)), barChart("By mode", bars(usage.by_mode))),
    ),
  );

  async function showSavings() {
    const b = baseline.value;
    savingsBox.setAttribute("aria-busy", "true");
    const [{ json: sv }, { json: daily }] = await Promise.all([api(`/v1/savings${query({ baseline: b })}`), api(`/v1/usage/daily${query({ days: 30, baseline: b })}`)]);
    replace(
      savingsBox,
      h(
        "div",
        { class: "cards" },
        card(`On ${sv.baseline_model} it would have cost`, usd(sv.baseline_cost_usd)),
        card("Saved", h("span", { id: "saved-usd" }, usd(sv.saved_usd)), h("div", { class: "muted" }, `${sv.saved_pct}% (an estimate from per-token prices)`)),
      ),
      h(
        "div",
        { class: "charts" },
        dayChart("Spend per day, last 30 days (UTC)", daily.data.map((/** @type {{date: string, cost_usd: number}} */ d) => ({ date: d.date, value: d.cost_usd })), usd),
        dayChart(`Saved per day against ${sv.baseline_model}`, daily.data.map((/** @type {{date: string, saved_usd: number}} */ d) => ({ date: d.date, value: d.saved_usd })), usd, "b"),
      ),
    );
    savingsBox.removeAttribute("aria-busy");
  }
  baseline.addEventListener("change", () => void showSavings());
  await showSavings();
}
