// The package mirror this project is developed against does not carry workerd's macOS and Windows
// builds, so `npm install` leaves them out of package-lock.json and `npm ci` then refuses the lock.
// This adds the entries npm would have written: optional, tagged with their os and cpu, version only.
// On Linux npm skips them without fetching; on macOS or Windows npm fetches them by name and version.
// Run after any `npm install` that rewrites the lock: node scripts/lock-platforms.mjs
import { readFileSync, writeFileSync } from "node:fs";

const PLATFORMS = { "darwin-64": ["darwin", "x64"], "darwin-arm64": ["darwin", "arm64"], "windows-64": ["win32", "x64"], "linux-64": ["linux", "x64"], "linux-arm64": ["linux", "arm64"] };
const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
const pkgs = lock.packages;
let added = 0;
for (const entry of Object.values(pkgs)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    const platform = /^@cloudflare\/workerd-(.+)$/.exec(name)?.[1];
    if (pkgs[key] || !platform || !PLATFORMS[platform]) continue;
    const [os, cpu] = PLATFORMS[platform];
    pkgs[key] = { version, cpu: [cpu], license: "Apache-2.0", optional: true, os: [os], engines: { node: ">=16" } };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
writeFileSync("package-lock.json", JSON.stringify(lock, null, 2) + "\n");
console.log(`lock-platforms: added ${added} entr${added === 1 ? "y" : "ies"}`);
