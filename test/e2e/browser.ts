import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Headless Chromium for the console's browser tests: Debian's `chromium` package driven by
 * playwright-core (no browser download). `CHROMIUM_PATH` overrides the binary. When there is no
 * Chromium, `browserSkipReason` says why, and the tests skip with that message instead of failing,
 * so `npm test` passes on a machine without it (.ci/run installs it).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function playwrightInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve("playwright-core");
    return true;
  } catch {
    return false;
  }
}

export const browserSkipReason: string | undefined = !existsSync(CHROMIUM_PATH)
  ? `no Chromium at ${CHROMIUM_PATH} (install Debian's chromium: apt-get install -y chromium, or set CHROMIUM_PATH)`
  : !playwrightInstalled()
    ? "playwright-core is not installed (a devDependency: run npm ci)"
    : undefined;

/**
 * The part of playwright-core's API these tests use, declared here so that the suite type-checks
 * (and skips, saying why) in a checkout whose node_modules predates the playwright-core devDependency.
 */
export interface Locator {
  first(): Locator;
  filter(o: { hasText: string | RegExp }): Locator;
  locator(selector: string, o?: { hasText: string | RegExp }): Locator;
  waitFor(): Promise<void>;
  click(): Promise<void>;
  fill(value: string): Promise<void>;
  selectOption(value: string): Promise<unknown>;
  innerText(): Promise<string>;
  textContent(): Promise<string | null>;
  inputValue(): Promise<string>;
  allInnerTexts(): Promise<string[]>;
  getAttribute(name: string): Promise<string | null>;
  count(): Promise<number>;
  evaluate<R, E extends Element = HTMLElement>(fn: (el: E) => R): Promise<R>;
}
export interface Page {
  goto(url: string): Promise<{ status(): number; headers(): Record<string, string> } | null>;
  reload(): Promise<unknown>;
  url(): string;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  evaluate<R>(fn: () => R | Promise<R>): Promise<R>;
  locator(selector: string, o?: { hasText: string | RegExp }): Locator;
  getByLabel(text: string): Locator;
  getByRole(role: string, o?: { name?: string | RegExp; exact?: boolean }): Locator;
  getByText(text: string | RegExp): Locator;
  screenshot(o: { path: string; fullPage?: boolean }): Promise<unknown>;
  keyboard: { press(key: string): Promise<void> };
  on(event: "pageerror", fn: (e: Error) => void): void;
  on(event: "console", fn: (m: { type(): string; text(): string }) => void): void;
  on(event: "dialog", fn: (d: { accept(): Promise<void> }) => void): void;
}
export interface BrowserContext {
  pages(): Page[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** A fresh browser profile each launch; `close` removes it. */
export async function launchBrowser(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  // A variable specifier, so that no type-check or bundler needs the package; it is there when this runs.
  const pkg = "playwright-core";
  const { chromium } = (await import(pkg)) as { chromium: { launchPersistentContext(dir: string, o: Record<string, unknown>): Promise<BrowserContext> } };
  const profile = mkdtempSync(path.join(tmpdir(), "svc-console-chromium-"));
  // Playwright passes the profile as --user-data-dir itself (it refuses the flag in args).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: FLAGS,
    viewport: { width: 1100, height: 760 },
    deviceScaleFactor: 1,
    timeout: 60_000,
  });
  return {
    context,
    close: async () => {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
