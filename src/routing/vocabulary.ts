import type { Signal } from "./types";

/**
 * The words and phrases that count toward each intent signal (docs/routing.md, "The classifier").
 * A `strong` cue is 2 points, a `weak` one 1 (words such as "function", "why" or "table" are as
 * common in plain questions as in tasks). The points are a prior of the classifier's intent logits
 * and a feature it weighs: what the vocabulary knows beyond the training corpus.
 * Entries are lowercase words separated by single spaces; a phrase matches the same words in the
 * prompt with any run of spaces or punctuation between them ("step-by-step" matches "step by step").
 */
export interface Cues {
  strong: readonly string[];
  weak: readonly string[];
}

/** Natural languages recognized after "into", "to" and "in" (translation cues). */
export const LANGUAGES = [
  "english", "french", "spanish", "german", "italian", "portuguese", "chinese", "mandarin", "cantonese", "japanese",
  "korean", "russian", "arabic", "hindi", "bengali", "urdu", "dutch", "swedish", "norwegian", "danish", "finnish",
  "polish", "turkish", "greek", "hebrew", "vietnamese", "thai", "indonesian", "malay", "ukrainian", "czech",
  "romanian", "hungarian", "persian", "farsi", "swahili", "latin", "catalan", "tagalog",
] as const;

export const CUES: Readonly<Record<Exclude<Signal, "long_context" | "simple">, Cues>> = {
  code: {
    strong: [
      "code", "coding", "python", "javascript", "typescript", "java", "rust", "golang", "kotlin", "csharp", "cpp",
      "php", "ruby", "scala", "haskell", "sql", "regex", "regexp", "debug", "debugging", "bug", "bugs", "compile",
      "compiler", "refactor", "refactoring", "traceback", "stacktrace", "stack trace", "api", "endpoint", "html",
      "css", "react", "nodejs", "node js", "npm", "pip install", "docker", "dockerfile", "kubernetes", "git", "github",
      "segfault", "null pointer", "nullpointerexception", "typeerror", "syntaxerror", "syntax error", "unit test",
      "unit tests", "unittest", "pytest", "jest", "async", "await", "programming", "recursion", "boolean", "bash",
      "backend", "frontend", "struct", "repository", "codebase", "sdk", "webpack", "graphql", "linter", "runtime error",
    ],
    weak: [
      "function", "functions", "class", "method", "variable", "array", "loop", "return", "import", "def", "const",
      "string", "integer", "error", "exception", "library", "framework", "database", "query", "algorithm", "snippet",
      "implement", "implementation", "script", "program", "shell", "linux", "server", "json", "yaml", "enum",
      "pointer", "recursive", "deploy", "install", "terminal", "command line", "matrix",
    ],
  },
  math: {
    strong: [
      "math", "maths", "mathematics", "equation", "equations", "integral", "integrate", "derivative", "differentiate",
      "calculus", "algebra", "geometry", "trigonometry", "theorem", "probability", "eigenvalue", "eigenvalues",
      "polynomial", "quadratic", "logarithm", "factorial", "sqrt", "square root", "arithmetic", "prime number",
      "prime numbers", "variance", "standard deviation", "calculate", "multiply", "multiplied", "solve for",
      "statistics", "combinatorics", "modulo", "hypotenuse", "frac",
    ],
    weak: [
      "solve", "compute", "sum", "average", "median", "percentage", "percent", "proof", "prove", "formula",
      "fraction", "divide", "divided", "how many", "how much", "number", "numbers", "matrix", "vector", "ratio",
    ],
  },
  reasoning: {
    strong: [
      "reasoning", "step by step", "analyze", "analyse", "analysis", "think through", "think carefully", "tradeoff",
      "tradeoffs", "trade off", "trade offs", "pros and cons", "evaluate", "implications", "justify", "logic",
      "logical", "puzzle", "riddle", "deduce", "infer", "inference", "hypothesis", "what would happen", "root cause",
      "reason about", "critically", "counterargument", "prove",
    ],
    weak: [
      "why", "explain", "compare", "comparison", "consequences", "argument", "argue", "strategy", "what if", "plan",
      "decide", "decision", "optimal", "optimize", "diagnose", "critique", "assess", "reason", "best approach",
      "should i", "difference between", "algorithm",
    ],
  },
  creative: {
    strong: [
      "story", "stories", "poem", "poems", "poetry", "haiku", "limerick", "sonnet", "lyrics", "song", "fiction",
      "screenplay", "short story", "fairy tale", "fable", "once upon", "creative", "slogan", "tagline", "jingle",
      "rhyme", "rhyming", "joke", "jokes", "pun", "puns",
    ],
    weak: [
      "imagine", "character", "characters", "plot", "narrative", "verse", "metaphor", "brainstorm", "essay", "blog",
      "fantasy", "dialogue", "novel", "write a", "invent", "tale",
    ],
  },
  extraction: {
    strong: [
      "extract", "extraction", "pull out", "named entities", "entities", "key value", "phone numbers",
      "email addresses", "identify all", "list all the", "structured data",
    ],
    weak: [
      "parse", "fields", "list all", "find all", "from the following", "from this text", "json", "csv", "table",
      "structured", "emails", "dates", "names", "invoice", "fill in", "schema", "classify", "categorize", "label",
      "key points",
    ],
  },
  summarization: {
    strong: [
      "summarize", "summarise", "summary", "summarization", "summarisation", "tl dr", "tldr", "recap", "condense",
      "main points", "sum up", "gist", "synopsis", "key takeaways",
    ],
    weak: [
      "abstract", "shorten", "outline", "digest", "bullet points", "briefly", "overview", "in brief", "key points",
      "shorter",
    ],
  },
  translation: {
    strong: [
      "translate", "translation", "translated", "translating", "translator", "do you say", "how to say",
      ...LANGUAGES.flatMap((l) => [`into ${l}`, `to ${l}`]),
    ],
    weak: ["localize", "localise", "localization", "language", ...LANGUAGES.map((l) => `in ${l}`)],
  },
};
