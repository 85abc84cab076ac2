import { describe, expect, it } from "vitest";
import { SseParser, sseBytes } from "../../src/providers/sse";

/** The messages of `text` fed to the parser in `size`-byte pieces (mid-line, mid-CRLF, mid-UTF-8). */
function read(text: string, size = 7) {
  const bytes = new TextEncoder().encode(text);
  const parser = new SseParser();
  const out = [];
  for (let i = 0; i < bytes.length; i += size) out.push(...parser.push(bytes.slice(i, i + size)));
  return [...out, ...parser.end()];
}

describe("SSE parser", () => {
  it.each([1, 2, 3, 5, 64])("parses LF, CRLF and CR line ends at any chunk size (%i bytes)", (size) => {
    const text = "event: a\ndata: 1\n\nevent: b\r\ndata: 2\r\n\r\ndata: 3\r\rdata: é€😀\n\n";
    expect(read(text, size)).toEqual([
      { event: "a", data: "1" },
      { event: "b", data: "2" },
      { event: "message", data: "3" },
      { event: "message", data: "é€😀" },
    ]);
  });

  it("joins multi-line data, skips comments and blank events, keeps the value after one space", () => {
    const text = ": keep-alive\n\ndata:x\ndata:  y\nid: 7\nretry: 10\n\n\n\nevent: only-event\n\n";
    expect(read(text)).toEqual([{ event: "message", data: "x\n y" }]);
  });

  it("drops a message the stream did not finish, so a cut reads as an early end", () => {
    expect(read("data: 1\n\ndata: 2\n")).toEqual([{ event: "message", data: "1" }]);
    expect(read("")).toEqual([]);
  });

  it("returns every message one read completes, in order, and carries the partial one to the next read", () => {
    const parser = new SseParser();
    const enc = new TextEncoder();
    expect(parser.push(enc.encode("data: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4"))).toEqual([
      { event: "message", data: "1" },
      { event: "message", data: "2" },
      { event: "message", data: "3" },
    ]);
    expect(parser.push(enc.encode("2\n"))).toEqual([]);
    expect(parser.push(enc.encode("\n"))).toEqual([{ event: "message", data: "42" }]);
    // A CR at the end of one read and its LF at the start of the next are one line end.
    expect(parser.push(enc.encode("data: 5\r"))).toEqual([]);
    expect(parser.push(enc.encode("\n\r\n"))).toEqual([{ event: "message", data: "5" }]);
    expect(parser.end()).toEqual([]);
  });

  it("writes what it reads", () => {
    const bytes = [sseBytes('{"a":1}', "ev"), sseBytes("[DONE]"), sseBytes("x", undefined, "\r\n")];
    const text = bytes.map((b) => new TextDecoder().decode(b)).join("");
    expect(text).toBe('event: ev\ndata: {"a":1}\n\ndata: [DONE]\n\ndata: x\r\n\r\n');
    expect(read(text)).toEqual([
      { event: "ev", data: '{"a":1}' },
      { event: "message", data: "[DONE]" },
      { event: "message", data: "x" },
    ]);
  });
});
