import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { d1Query, sqlString } from "../../scripts/lib/wrangler";
import { browserSkipReason, launchBrowser, type BrowserContext, type Page } from "./browser";

/**
 * The console (issue 17) in headless Chromium against `npm run dev`: sign in, read the overview,
 * create and revoke a key, verify a receipt, see a tampered handoff chain shown as broken, verify an
 * agent trajectory, validate a brain config, preview compliance. With CONSOLE_SCREENSHOTS=<dir>
 * each page is also saved as a PNG (how docs/console.md's pictures are made).
 */
const baseUrl = inject("baseUrl");
const devKey = inject("devKey");
const persistTo = inject("persistTo");
const SHOTS = process.env.CONSOLE_SCREENSHOTS;

const api = async (p: string, key: string, body?: unknown) => {
  const r = await fetch(`${baseUrl}${p}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json()) as any };
};

if (browserSkipReason) {
  describe("console in headless Chromium", () => {
    it.skip(`skipped: ${browserSkipReason}`, () => {});
  });
  console.warn(`console browser tests skipped: ${browserSkipReason}`);
} else {
  describe("console in headless Chromium", () => {
    let browser: Awaited<ReturnType<typeof launchBrowser>>;
    let context: BrowserContext;
    let page: Page;
    /** The console signs in with a key of its own (same owner as the dev key), so revoking keys cannot touch the dev key other files use. */
    let key: string;
    const errors: string[] = [];

    /** A viewport-sized PNG with `selector` (else the top of the page) at the top. */
    const shot = async (name: string, selector?: string) => {
      if (!SHOTS) return;
      mkdirSync(SHOTS, { recursive: true });
      if (selector) await page.locator(selector).first().evaluate((el) => el.scrollIntoView({ block: "start" }));
      else await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
    };
    const open = async (hash: string) => {
      await page.evaluate((h) => (location.hash = h), hash);
      await page.locator("main:not([aria-busy])").locator("h1").first().waitFor();
    };

    beforeAll(async () => {
      const made = await api("/v1/keys", devKey, {});
      expect(made.status).toBe(201);
      key = made.json.key;
      // Some traffic to show: two routed chat calls (each with a receipt).
      for (const content of ["Write a haiku about caches", "Explain a SQL index in one line"]) {
        expect((await api("/v1/chat/completions", key, { messages: [{ role: "user", content }] })).status).toBe(200);
      }
      browser = await launchBrowser();
      context = browser.context;
      page = context.pages()[0] ?? (await context.newPage());
      page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(`console: ${m.text()}`);
      });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
    });

    it("is served at /console with a CSP and signs in with a key kept in sessionStorage only", async () => {
      const res = await page.goto(`${baseUrl}/console`);
      expect(res!.status()).toBe(200);
      expect(res!.headers()["content-security-policy"]).toContain("script-src 'self'");
      await page.getByLabel("API key").fill("svc_sk_" + "x".repeat(43));
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect.poll(() => page.locator("#signin-error").textContent()).toContain("invalid_api_key");
      // The browser logs that refused sign-in's 401 as a failed resource; it is the expected answer.
      errors.length = 0;
      await page.getByLabel("API key").fill(key);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Plan and limits" }).waitFor();
      expect(await page.evaluate(() => sessionStorage.getItem("svc.console.key"))).toBe(key);
      expect(await page.evaluate(() => localStorage.length + document.cookie.length)).toBe(0);
    });

    it("overview: plan, limits, spend and savings with charts; the baseline is selectable", async () => {
      await open("#/overview");
      await page.locator("#saved-usd").waitFor();
      const text = await page.locator("main").innerText();
      expect(text).toContain("Pro");
      expect(text).toMatch(/Requests today \(24 h\)\s+\d+ of 50,000/);
      expect(text).toMatch(/This minute\s+\d+ of 300/);
      expect(await page.locator("svg.chart").count()).toBe(5);
      expect(await page.locator('svg.chart[aria-label^="Spend per day"]').getAttribute("aria-label")).toMatch(/30 days from .* in all/);
      expect(await page.locator('svg.chart[aria-label^="By model"]').getAttribute("aria-label")).toMatch(/req/);
      await shot("overview");
      const before = await page.locator("#saved-usd").textContent();
      await page.getByLabel("Savings baseline model").selectOption("gpt-5-nano");
      await expect.poll(() => page.locator("main").innerText()).toContain("On gpt-5-nano it would have cost");
      expect(before).toMatch(/^\$/);
    });

    it("keys: create one (secret shown once), then revoke it; the API then refuses it", async () => {
      page.on("dialog", (d) => void d.accept());
      await open("#/keys");
      await page.getByRole("button", { name: "Create key" }).click();
      const secret = await page.locator("#new-key-secret").inputValue();
      expect(secret).toMatch(/^svc_sk_[0-9A-Za-z]{43}$/);
      expect((await api("/v1/usage", secret)).status).toBe(200);
      const prefix = secret.slice(0, 15);
      await page.getByRole("button", { name: `Revoke key ${prefix}` }).click();
      await page.getByRole("status").filter({ hasText: `Revoked ${prefix}` }).waitFor();
      await expect.poll(() => page.locator("tr", { hasText: prefix }).innerText()).toContain("revoked");
      expect((await api("/v1/usage", secret)).status).toBe(401);
      expect(await page.locator("main").innerText()).not.toContain(secret);
      await shot("keys");
    });

    it("requests: recent calls, and a receipt verified through GET /v1/proof/{id}", async () => {
      await open("#/requests");
      await page.getByRole("link", { name: "Verify" }).first().click();
      await page.locator("#receipt-result").waitFor();
      expect(await page.locator("#receipt-result").innerText()).toContain("Verified");
      expect(await page.locator("main").innerText()).toContain("valid Ed25519 signature");
      await shot("requests", "h2:has-text('Verify a receipt')");
    });

    it("workspaces: a tampered handoff chain is drawn broken at the entry where it breaks", async () => {
      const ws = `ws-console-${Date.now()}`;
      for (const objective of ["Set up the repo", "Add the billing module", "Review the billing module"]) {
        expect((await api("/v1/handoff", key, { workspace_id: ws, objective, from_tool: "claude", to_tool: "cursor" })).status).toBe(200);
      }
      await open(`#/workspaces/${ws}`);
      expect(await page.locator("#chain-state").innerText()).toContain("Chain intact: 3 entries");
      // Someone with database access rewrites entry 1.
      await d1Query(`UPDATE handoffs SET objective = 'Add the billing module (forged)' WHERE workspace_id = ${sqlString(ws)} AND seq = 1`, { persistTo });
      await page.reload();
      await page.locator("#chain-state").waitFor();
      expect(await page.locator("#chain-state").innerText()).toContain("Chain broken at entry 1");
      expect(await page.locator(".link.first-broken").innerText()).toContain("breaks here");
      expect(await page.locator(".link.broken").count()).toBe(2);
      await page.getByRole("button", { name: "Score readiness" }).click();
      await page.getByText(/Score \d+\/100/).waitFor();
      await page.locator("table", { hasText: "handoff_created" }).first().waitFor();
      await shot("workspaces");
    });

    it("agents: a run's trajectory with models, costs and hashes, verified by POST /v1/agent/verify", async () => {
      const run = await api("/v1/agent/run", key, { goal: "1. Outline the runbook.\n2. Draft the rollback section.", max_cost_usd: 1 });
      expect(run.status).toBe(200);
      await open("#/agents");
      await page.getByRole("link", { name: run.json.run_id }).click();
      await page.getByRole("heading", { name: /Trajectory \(\d+ steps\)/ }).waitFor();
      await page.getByRole("button", { name: "Verify", exact: true }).click();
      await page.locator("#verify-result .notice").waitFor();
      expect(await page.locator("#verify-result").innerText()).toContain("Valid");
      await shot("agents");
    });

    it("brain configs: validated as you type, route preview, share and badge Markdown", async () => {
      await open("#/brain");
      await expect.poll(() => page.locator("#brain-status").innerText()).toContain("Valid");
      const editor = page.getByLabel("BRAIN.md (validated as you type)");
      await editor.fill("max_cost: -1\n");
      await expect.poll(() => page.locator("#brain-status").innerText()).toContain("error");
      await editor.fill("rules:\n  - when: {signal: code}\n    model: claude-sonnet-4-6\n");
      await expect.poll(() => page.locator("#brain-status").innerText()).toContain("Valid");
      await page.getByRole("button", { name: "Preview route" }).click();
      await expect.poll(() => page.locator("#route-result").innerText()).toContain("claude-sonnet-4-6");
      await page.getByRole("button", { name: "Share" }).click();
      await expect.poll(() => page.locator("#badge-md").inputValue()).toMatch(/^\[!\[BRAIN\.md\]\(http.*\/v1\/brain\/badge\?model=claude-sonnet-4-6\)\]\(http.*\/b\/[A-Za-z0-9_-]+\)$/);
      await expect.poll(() => page.locator("img[alt^='BRAIN.md badge']").evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
      await shot("brain");
    });

    it("compliance: the preview highlights the detected classes", async () => {
      await open("#/compliance");
      await page.locator("#detected").waitFor();
      const chips = await page.locator("#detected mark").allInnerTexts();
      expect(chips).toEqual(expect.arrayContaining(["PII", "PHI", "FINANCIAL"]));
      await shot("compliance");
    });

    it("no page error, no CSP violation, nothing logged as an error", () => {
      expect(errors).toEqual([]);
    });

    it("contrast: every text on every page is at least 4.5:1 against its background (3:1 when large)", async () => {
      const low: string[] = [];
      for (const hash of ["#/overview", "#/requests", "#/keys", "#/workspaces", "#/agents", "#/brain", "#/compliance"]) {
        await open(hash);
        low.push(
          ...(await page.evaluate((where) => {
            const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
            const lum = ([r, g, b]: number[]) => {
              const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
              return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
            };
            const background = (el: Element | null): number[] => {
              for (; el; el = el.parentElement) {
                const c = rgb(getComputedStyle(el).backgroundColor);
                if (c.length === 3 || (c.length === 4 && c[3]! > 0.5)) return c.slice(0, 3);
              }
              return [255, 255, 255];
            };
            const out: string[] = [];
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
              const el = n.parentElement!;
              if (!n.textContent!.trim() || !el.checkVisibility() || el.closest("svg, option, .visually-hidden, .skip")) continue;
              const st = getComputedStyle(el);
              const fg = lum(rgb(st.color));
              const bg = lum(background(el));
              const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
              const size = parseFloat(st.fontSize);
              const large = size >= 24 || (size >= 18.66 && Number(st.fontWeight) >= 700);
              if (ratio < (large ? 3 : 4.5)) out.push(`${where}: "${n.textContent!.trim().slice(0, 40)}" ${ratio.toFixed(2)}:1`);
            }
            return out;
          }, hash)),
        );
      }
      expect(low).toEqual([]);
    });

    it("keyboard: the pages are reachable with Tab and Enter", async () => {
      await open("#/overview");
      // The overview's figures arrive after its heading; when they are in, the console puts focus on
      // the main region. Tab only after that, or that focus move takes it from the Keys link.
      await expect.poll(() => page.evaluate(() => !document.querySelector("main [aria-busy]") && document.activeElement?.id === "main")).toBe(true);
      // Where focus starts depends on the page (navigation focuses the main heading), so Tab may
      // pass through the page's own controls before it wraps to the navigation.
      let reached = false;
      for (let i = 0; i < 80 && !reached; i++) {
        await page.keyboard.press("Tab");
        reached = (await page.evaluate(() => document.activeElement?.textContent ?? "")) === "Keys";
      }
      expect(reached, "Tab never reached the Keys link").toBe(true);
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "Keys", exact: true }).waitFor();
      expect(page.url()).toContain("#/keys");
    });
  });
}
