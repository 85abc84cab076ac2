import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

/**
 * The console's static files (src/console/public, served by Workers static assets): small, with no
 * framework, and CSP-friendly (the `_headers` policy allows scripts and styles from 'self' only).
 */
const ROOT = path.resolve(import.meta.dirname, "../../src/console/public");
export const MAX_GZIP_BYTES = 150 * 1024;

const files = readdirSync(ROOT, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile())
  .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
const text = (f: string) => readFileSync(path.join(ROOT, f), "utf8");
const scripts = files.filter((f) => f.endsWith(".js"));

describe("the console bundle (issue 17)", () => {
  it("is under 150 KB gzip-compressed, all files together", () => {
    const sizes = files.map((f) => ({ f, raw: readFileSync(path.join(ROOT, f)).length, gz: gzipSync(readFileSync(path.join(ROOT, f)), { level: 9 }).length }));
    const raw = sizes.reduce((s, x) => s + x.raw, 0);
    const gz = sizes.reduce((s, x) => s + x.gz, 0);
    console.info(`console: ${files.length} files, ${raw} bytes, ${gz} bytes gzip (limit ${MAX_GZIP_BYTES})`);
    expect(files).toEqual(expect.arrayContaining(["_headers", "console/index.html", "console/app.js", "console/app.css"]));
    expect(gz).toBeLessThan(MAX_GZIP_BYTES);
  });

  it("is served with a Content-Security-Policy that allows nothing inline", () => {
    const headers = text("_headers");
    const csp = /Content-Security-Policy: (.+)/.exec(headers)?.[1] ?? "";
    expect(headers.startsWith("/console/*\n")).toBe(true);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-");
  });

  it("has no inline script or style, no HTML parsing of strings, no eval, no third-party origin", () => {
    const html = text("console/index.html");
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    for (const f of scripts) {
      const src = text(f);
      expect(src, f).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|style:/);
      expect(src, f).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    }
  });

  it("keeps the key in sessionStorage only", () => {
    const all = scripts.map(text).join("\n");
    expect(all).toContain("sessionStorage");
    expect(all).not.toMatch(/localStorage|document\.cookie|indexedDB/);
  });

  it("every page the navigation links to has its module, and every module is linked", () => {
    const linked = [...text("console/index.html").matchAll(/href="#\/([a-z]+)"/g)].map((m) => m[1]);
    const pages = scripts.filter((f) => f.startsWith("console/pages/")).map((f) => path.basename(f, ".js"));
    expect(linked.sort()).toEqual(pages.sort());
    expect(linked).toHaveLength(7);
  });
});
