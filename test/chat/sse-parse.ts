/** Splits an SSE body into its `data:` payloads, as a client reads them. */
export function sseEvents(text: string): string[] {
  return text
    .split("\n\n")
    .map((block) => block.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n"))
    .filter(Boolean);
}
