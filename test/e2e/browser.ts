import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext } from "playwright-core";

/**
 * Headless Chromium for the console's browser tests: Debian's `chromium` package driven by
 * playwright-core (no browser download). `CHROMIUM_PATH` overrides the binary. When there is no
 * Chromium, `browserSkipReason` says why, and the tests skip with that message instead of failing,
 * so `npm test` passes on a machine without it (.ci/run installs it).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const browserSkipReason: string | undefined = existsSync(CHROMIUM_PATH)
  ? undefined
  : `no Chromium at ${CHROMIUM_PATH} (install Debian's chromium: apt-get install -y chromium, or set CHROMIUM_PATH)`;

const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** A fresh browser profile each launch; `close` removes it. */
export async function launchBrowser(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const { chromium } = await import("playwright-core");
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
