import { describe, expect, it } from "vitest";
import { parseFiles, safePath, utf8Bytes } from "../../src/code/files";
import { detectLanguage } from "../../src/code/language";
import { parseVerdict } from "../../src/code/review";

describe("code mode: files from fenced blocks (docs/code-mode.md)", () => {
  it("finds the path where real models write it", () => {
    const reply = [
      "Here you go.",
      "```python path=src/app.py\nprint(1)\n```",
      "```typescript src/util.ts\nexport const x = 1;\n```",
      "### `lib/helpers.js`\n\n```javascript\nmodule.exports = {};\n```",
      "**query.sql**\n```sql\nSELECT 1;\n```",
      "```go\n// file: cmd/main.go\npackage main\n```",
      "```ruby\n# tool.rb\nputs 1\n```",
      '```python title="scripts/run.py"\npass\n```',
      "```Makefile.mk\nall:\n```",
    ].join("\n\n");
    const { files, rejected } = parseFiles(reply, "python");
    expect(files.map((f) => [f.path, f.language])).toEqual([
      ["src/app.py", "python"],
      ["src/util.ts", "typescript"],
      ["lib/helpers.js", "javascript"],
      ["query.sql", "sql"],
      ["cmd/main.go", "go"],
      ["tool.rb", "ruby"],
      ["scripts/run.py", "python"],
      ["Makefile.mk", "python"],
    ]);
    expect(files.find((f) => f.path === "cmd/main.go")!.content).toBe("package main\n");
    expect(rejected).toEqual([]);
  });

  it("bytes is the UTF-8 length of the content", () => {
    const { files } = parseFiles("```python path=a.py\nprint('héllo ✓')\n```", "python");
    expect(files[0]!.bytes).toBe(utf8Bytes("print('héllo ✓')\n"));
    expect(files[0]!.bytes).toBe(20);
  });

  it("rejects paths that escape: .., absolute, drive letters, home; the code keeps a default name", () => {
    for (const bad of ["../etc/passwd", "/etc/passwd", "C:\\\\Windows\\\\x.py", "c:/x.py", "a/../../b.py", "~/x.py", "a//b.py"]) expect(safePath(bad), bad).toBeNull();
    expect(safePath("./src\\app.py")).toBe("src/app.py");
    const { files, rejected } = parseFiles("```python path=../../evil.py\nx = 1\n```\n\n```python\ny = 2\n```", "python");
    expect(rejected).toEqual(["../../evil.py"]);
    expect(files.map((f) => f.path)).toEqual(["main.py", "main_2.py"]);
  });

  it("a file written twice is the later one; no fence, no files", () => {
    expect(parseFiles("```python path=a.py\n1\n```\n```python path=a.py\n2\n```", "python").files.map((f) => f.content)).toEqual(["2\n"]);
    expect(parseFiles("I cannot write that.", "python").files).toEqual([]);
  });

  it("detects the language from the task, else python", () => {
    expect(detectLanguage("Write a TypeScript debounce")).toEqual({ language: "typescript", detected: true });
    expect(detectLanguage("a Rust CLI that counts lines")).toEqual({ language: "rust", detected: true });
    expect(detectLanguage("reverse a linked list")).toEqual({ language: "python", detected: false });
  });
});

describe("code mode: the critic's verdict, read tolerantly", () => {
  it("fenced, with prose, rescaled", () => {
    expect(parseVerdict('```json\n{"passed": true, "score": 0.9, "issues": []}\n```')).toEqual({ passed: true, score: 0.9, issues: [], readable: true });
    expect(parseVerdict('{"passed": false, "score": 4, "issues": ["x", 3]}\nFix it.')).toEqual({ passed: false, score: 0.4, issues: ["x"], readable: true });
    expect(parseVerdict('{"passed": "yes"}').passed).toBe(false);
  });

  it("an unreadable review is not passed, with an issue saying so", () => {
    const v = parseVerdict("Looks good to me!");
    expect(v).toMatchObject({ passed: false, score: 0, readable: false });
    expect(v.issues[0]).toMatch(/could not be read/);
  });
});
