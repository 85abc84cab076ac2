/**
 * `npm run bench -- --perf`: reading `perf script` output (with V8's perf map names) into CPU per
 * request by isolate and native part, and the gateway's functions.
 */
import { describe, expect, it } from "vitest";
import { attribute, formatPerf, isolateOf, jsFrame, nativeKind, parsePerfScript } from "../../bench/perf";
import { GATEWAY_MODULE } from "../../bench/workerd";

const header = (t: number) => `workerd 28524 38366.${t}:     1000000 cpu-clock: `;
const W = "(/x/workerd)";
const MAP = "(/tmp/perf-1.map)";
/** Four samples as perf prints them: innermost frame first. */
const SCRIPT = [
  [header(1), `\t 5642da0b7ec3 JS:+'Hash.update node-internal:crypto_hash:77:34+0x2c3 ${MAP}`, `\t 5642da13369b JS:+'seal ${GATEWAY_MODULE}:36839:10+0x85b ${MAP}`, `\t 5642da133de2 JS:+' ${GATEWAY_MODULE}:44381:161+0xfa2 ${MAP}`, `\t 379c8d0 workerd::IoContext::runImpl+0x1f3 ${W}`].join("\n"),
  [header(2), `\t 5642da1235e9 JS:*fetch index.js:93:10+0x129 ${MAP}`, `\t 379c8d0 workerd::IoContext::runImpl+0x1f3 ${W}`].join("\n"),
  [header(3), `\t 4591e78 v8::internal::Heap::CollectGarbage+0x78 ${W}`, `\t 379c8d0 workerd::IoContext::runImpl+0x1f3 ${W}`].join("\n"),
  [header(4), `\t 638c7b0 kj::HttpHeaders::addPtrPtr+0x3e ${W}`, `\t ffffffff81000000 entry_SYSCALL_64 ([kernel.kallsyms])`].join("\n"),
].join("\n\n");

describe("bench --perf", () => {
  it("splits perf script output into samples of frames, innermost first", () => {
    const samples = parsePerfScript(SCRIPT);
    expect(samples).toHaveLength(4);
    expect(samples[0]![0]).toMatch(/Hash\.update/);
  });

  it("reads V8's perf map names: function, script (colons included) and line; anonymous functions named so", () => {
    expect(jsFrame(`5642da0b7ec3 JS:+'Hash.update node-internal:crypto_hash:77:34+0x2c3 ${MAP}`)).toEqual({ fn: "Hash.update", script: "node-internal:crypto_hash", line: 77 });
    expect(jsFrame(`5642da133de2 JS:+' ${GATEWAY_MODULE}:44381:161+0xfa2 ${MAP}`)).toEqual({ fn: "(anonymous)", script: GATEWAY_MODULE, line: 44381 });
    expect(jsFrame(`379c8d0 workerd::IoContext::runImpl+0x1f3 ${W}`)).toBeNull();
  });

  it("tells the isolates apart by script, and native work by its frames", () => {
    expect(isolateOf(GATEWAY_MODULE)).toMatch(/^gateway/);
    expect(isolateOf("index.js")).toMatch(/outbound/);
    expect(isolateOf("database.worker.js")).toMatch(/D1/);
    expect(isolateOf("node-internal:crypto_hash")).toBeNull();
    expect(nativeKind([`v8::internal::Heap::CollectGarbage ${W}`, `workerd::IoContext::runImpl ${W}`])).toMatch(/garbage/);
    expect(nativeKind([`kj::HttpHeaders::addPtrPtr ${W}`, "entry_SYSCALL_64 ([kernel.kallsyms])"])).toMatch(/kernel/);
  });

  it("charges runtime JavaScript to the isolate that called it, and gives us per request", () => {
    const r = attribute(parsePerfScript(SCRIPT), 2, 1000);
    expect(r.usPerRequest).toBe(2000);
    expect(Object.fromEntries(r.where.map((w) => [w.name, w.usPerRequest]))).toEqual({
      "gateway (our bundle, its Durable Objects included)": 500,
      "Miniflare's outbound hop": 500,
      "native: garbage collection": 500,
      "native: kernel (sockets, syscalls)": 500,
    });
    expect(r.self).toEqual([{ fn: "Hash.update (node-internal:crypto_hash line 77)", usPerRequest: 500 }]);
    expect(r.inclusive.map((f) => f.fn)).toEqual(["Hash.update (node-internal:crypto_hash line 77)", "seal (line 36839)", "(anonymous) (line 44381)"]);
    expect(formatPerf("t", r)).toContain("2000 us of workerd CPU per request");
  });
});
