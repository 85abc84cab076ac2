import { describe, expect, it } from "vitest";
import { SseReader, sseBytes } from "../../src/providers/sse";
import { readAll, streamOf } from "./helpers";

const read = (text: string, size?: number) => readAll(new SseReader(streamOf(text, size).getReader()));

describe("SSE reader", () => {
  it.each([1, 2, 3, 5, 64])("parses LF, CRLF and CR line ends at any chunk size (%i bytes)", async (size) => {
    const text = "event: a\ndata: 1\n\nevent: b\r\ndata: 2\r\n\r\ndata: 3\r\rdata: é€😀\n\n";
    expect(await read(text, size)).toEqual([
      { event: "a", data: "1" },
      { event: "b", data: "2" },
      { event: "message", data: "3" },
      { event: "message", data: "é€😀" },
    ]);
  });

  it("joins multi-line data, skips comments and blank events, keeps the value after one space", async () => {
    const text = ": keep-alive\n\ndata:x\ndata:  y\nid: 7\nretry: 10\n\n\n\nevent: only-event\n\n";
    expect(await read(text)).toEqual([{ event: "message", data: "x\n y" }]);
  });

  it("drops a message the stream did not finish, so a cut reads as an early end", async () => {
    expect(await read("data: 1\n\ndata: 2\n")).toEqual([{ event: "message", data: "1" }]);
    expect(await read("")).toEqual([]);
  });

  it("writes what it reads", async () => {
    const bytes = [sseBytes('{"a":1}', "ev"), sseBytes("[DONE]"), sseBytes("x", undefined, "\r\n")];
    const text = bytes.map((b) => new TextDecoder().decode(b)).join("");
    expect(text).toBe('event: ev\ndata: {"a":1}\n\ndata: [DONE]\n\ndata: x\r\n\r\n');
    expect(await read(text)).toEqual([
      { event: "ev", data: '{"a":1}' },
      { event: "message", data: "[DONE]" },
      { event: "message", data: "x" },
    ]);
  });
});
