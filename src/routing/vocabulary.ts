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

/**
 * Names of languages in the corpus's other languages (the common forms: German's "Englische" after
 * "ins", Russian's cases and "по-английски"; Chinese and Japanese a character at a time, at most
 * three). With LANGUAGES they light one feature, "a language is named in the request", so "a
 * short Portuguese summary" or "a German version" learns from every language's name at once.
 */
export const LANGUAGE_NAMES_ELSEWHERE = [
  "inglés", "francés", "alemán", "italiano", "portugués", "chino", "japonés", "ruso", "coreano", "árabe", "polaco",
  "turco", "neerlandés", "español", "anglais", "français", "allemand", "italien", "portugais", "chinois",
  "japonais", "russe", "coréen", "arabe", "néerlandais", "polonais", "turc", "espagnol", "englisch", "englische",
  "französisch", "französische", "deutsch", "deutsche", "italienisch", "italienische", "portugiesisch",
  "portugiesische", "chinesisch", "chinesische", "japanisch", "japanische", "russisch", "russische",
  "koreanisch", "koreanische", "arabisch", "arabische", "niederländisch", "niederländische", "polnisch",
  "polnische", "türkisch", "türkische", "spanisch", "spanische", "inglês", "francês", "alemão", "português",
  "chinês", "japonês", "russo", "holandês", "polonês", "espanhol", "inglese", "francese", "tedesco",
  "portoghese", "cinese", "giapponese", "arabo", "olandese", "polacco", "spagnolo", "английский", "английском",
  "английского", "английски", "французский", "французском", "французски", "немецкий", "немецком", "немецки",
  "испанский", "испанском", "испански", "итальянский", "итальянском", "итальянски", "португальский",
  "португальском", "китайский", "китайском", "китайски", "японский", "японском", "японски", "русский",
  "русском", "русски", "корейский", "корейском", "арабский", "польский", "польском", "турецкий", "турецком",
  "英 语", "英 文", "法 语", "法 文", "德 语", "德 文", "西 班 牙", "意 大 利", "日 语", "日 文", "中 文", "汉 语", "俄 语",
  "俄 文", "韩 语", "韩 文", "葡 萄 牙", "阿 拉 伯", "波 兰", "土 耳 其", "英 語", "中 国 語", "日 本 語", "韓 国 語",
  "フ ラ ン", "ド イ ツ", "ス ペ イ", "イ タ リ", "ロ シ ア", "ポ ル ト",
] as const;

type Intent = Exclude<Signal, "long_context" | "simple">;

/** English cues. */
const ENGLISH: Readonly<Record<Intent, Cues>> = {
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
      "rhyme", "rhyming", "joke", "jokes", "pun", "puns", "riddle", "acrostic", "slogans", "taglines", "haikus",
    ],
    weak: [
      "imagine", "character", "characters", "plot", "narrative", "verse", "metaphor", "brainstorm", "essay", "blog",
      "fantasy", "dialogue", "novel", "write a", "invent", "tale", "pretend", "monologue", "toast", "blurb",
      "speech", "eulogy", "backstory", "legend", "lullaby", "ballad", "ode", "villanelle",
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
      "shorter", "main idea",
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

/**
 * Cues in the corpus's other languages (es, fr, de, pt, it, ru, zh, ja), merged into CUES below.
 * Chinese and Japanese are read one character at a time, so their cues are written with a space
 * between characters ("翻 译" matches 翻译). Words that mean something else in English ("resume")
 * stay weak.
 */
const OTHER_LANGUAGES: Readonly<Record<Intent, Cues>> = {
  code: {
    strong: [
      "código", "depurar", "programación", "programação", "déboguer", "débogue", "programmation", "programmieren",
      "quellcode", "debuggen", "codice", "programmazione", "код", "кода", "отладить", "отладь", "скрипт",
      "代 码", "编 程", "调 试", "脚 本", "コ ー ド", "デ バ ッ", "プ ロ グ", "ス ク リ",
    ],
    weak: [
      "función", "fonction", "funktion", "função", "funzione", "функцию", "функция", "函 数", "関 数", "bucle",
      "boucle", "schleife", "fehler", "erreur", "erro", "errore", "ошибка", "错 误", "报 错", "エ ラ ー", "バ グ",
    ],
  },
  math: {
    strong: [
      "ecuación", "équation", "gleichung", "equação", "equazione", "уравнение", "уравнения", "方 程", "derivada",
      "dérivée", "ableitung", "derivata", "производную", "производная", "导 数", "導 関 数", "probabilidad",
      "probabilité", "wahrscheinlichkeit", "probabilidade", "probabilità", "вероятность", "概 率", "確 率",
      "demuestra", "démontre", "beweise", "demonstre", "dimostra", "докажи", "证 明", "証 明", "integral",
      "intégrale", "integrale", "интеграл", "积 分", "積 分",
    ],
    weak: [
      "calcula", "calcule", "berechne", "calcola", "вычисли", "посчитай", "计 算", "計 算", "resuelve", "résous",
      "löse", "resolva", "risolvi", "реши", "cuánto es", "combien font", "wie viel", "quanto é", "quanto fa",
      "сколько будет", "多 少",
    ],
  },
  reasoning: {
    strong: [
      "pros y contras", "ventajas y desventajas", "pour et contre", "avantages et inconvénients",
      "vor und nachteile", "prós e contras", "pro e contro", "плюсы и минусы", "利 弊", "优 缺 点", "メ リ ッ",
      "analiza", "analysiere", "analise", "analisi", "analizza", "проанализируй", "разбери", "分 析",
      "razonamiento", "raisonnement", "begründe", "ragionamento", "рассуждение",
    ],
    weak: [
      "por qué", "pourquoi", "warum", "por que", "perché", "почему", "为 什 么", "な ぜ", "compara", "comparer",
      "vergleiche", "confronta", "сравни", "比 较", "比 較", "riesgos", "risques", "risiken", "riscos", "rischi",
      "риски", "风 险", "リ ス ク", "recomendación", "recommandation", "empfehlung", "recomendação",
      "raccomandazione", "рекомендацию", "建 议", "す す め",
    ],
  },
  creative: {
    strong: [
      "poema", "poème", "gedicht", "poesia", "стихотворение", "стих", "诗", "詩", "cuento", "conte", "conto",
      "racconto", "рассказ", "故 事", "物 語", "хайку", "俳 句", "eslogan", "слоган", "标 语", "口 号",
      "canción", "chanson", "canção", "canzone", "песню", "песня", "歌 词", "chiste", "blague", "witz", "piada",
      "barzelletta", "шутку", "笑 话", "kurzgeschichte", "adivinanza", "devinette", "indovinello", "charada",
      "загадку", "谜 语", "な ぞ な", "märchen", "fiaba", "сказку", "сказка", "童 话", "お と ぎ", "eslóganes",
      "slogan", "werbespruch", "werbesprüche", "слоганов", "广 告 语", "haïkus", "haicais",
      "brindis", "brinde", "brindisi", "trinkspruch", "тост",
    ],
    weak: [
      "historia", "histoire", "história", "storia", "историю", "geschichte", "小 说", "小 説", "novela", "romanzo",
      "роман", "personaje", "personnage", "personaggio", "персонаж", "imagina", "imagine", "stell dir", "immagina",
      "представь", "вообрази", "想 象", "想 像", "diálogo", "dialog", "dialogo", "диалог", "erfinde", "inventa",
      "invente", "придумай",
      "discurso", "discours", "discorso", "rede", "речь", "致 辞", "祝 辞", "leyenda", "légende", "legende",
      "lenda", "leggenda", "легенда", "легенду", "传 说", "言 い 伝", "ballade", "balada", "ballata", "балладу",
      "monólogo", "monolog", "monologo", "монолог", "独 白",
    ],
  },
  extraction: {
    strong: [
      "extrae", "extrais", "extrahiere", "extraia", "estrai", "извлеки", "извлечь", "提 取", "抽 出", "extraer",
      "extraire", "extrahieren", "extrair", "estrarre", "выпиши", "列 出",
    ],
    weak: [
      "nombres", "noms", "namen", "nomes", "nomi", "имена", "姓 名", "名 前", "fechas", "datas", "даты", "日 期",
      "日 付", "correos", "телефоны", "电 话", "電 話", "responsables", "verantwortlichen", "responsáveis",
      "responsabili", "ответственных", "负 责 人", "担 当 者", "tabla", "tableau", "tabelle", "tabela", "tabella",
      "таблицу", "表 格", "clasifica", "classifie", "klassifiziere", "classifique", "classifica", "классифицируй",
      "分 类", "分 類", "перечисли", "一 覧",
    ],
  },
  summarization: {
    strong: [
      "resumen", "resumir", "résumer", "résume", "zusammenfassung", "fasse zusammen", "resumo", "resuma",
      "riassumi", "riassunto", "перескажи", "резюме", "总 结", "概 括", "摘 要", "要 約", "ま と め",
    ],
    weak: [
      "resume", "résumé", "brevemente", "brièvement", "kurz", "breve", "кратко", "краткое", "简 要", "簡 潔",
      "puntos clave", "points clés", "kernpunkte", "punti chiave", "главная мысль", "要 点", "sintesi",
      "idea principal", "idée principale", "hauptgedanke", "ideia principal", "idea principale", "основная мысль",
      "主 要", "要 旨",
    ],
  },
  translation: {
    strong: [
      "traduce", "traduis", "traduire", "übersetze", "übersetzen", "übersetzung", "traduza", "traduzir", "traduci",
      "tradurre", "traduzione", "traducción", "tradução", "переведи", "перевести", "перевод", "翻 译", "翻 訳",
      "cómo se dice", "comment dit on", "wie sagt man", "como se diz", "come si dice", "как сказать", "怎 么 说",
    ],
    weak: [
      "inglés", "francés", "alemán", "portugués", "japonés", "chino", "ruso", "coreano", "anglais", "allemand",
      "italien", "espagnol", "portugais", "japonais", "chinois", "russe", "englisch", "französisch", "spanisch",
      "italienisch", "japanisch", "chinesisch", "russisch", "englische", "inglês", "francês", "alemão", "espanhol",
      "japonês", "chinês", "inglese", "francese", "tedesco", "spagnolo", "portoghese", "giapponese", "cinese",
      "английский", "немецкий", "французский", "испанский", "китайский", "японский", "английском", "英 文",
      "英 语", "德 文", "法 文", "日 文", "韩 文", "德 语", "法 语", "日 语", "英 語", "中 国 語", "韓 国 語",
      "表 記",
    ],
  },
};

const merged = (s: Intent): Cues => ({
  strong: [...ENGLISH[s].strong, ...OTHER_LANGUAGES[s].strong],
  weak: [...ENGLISH[s].weak, ...OTHER_LANGUAGES[s].weak],
});

/** Every language's cues per intent signal: what the scanner looks up. */
export const CUES: Readonly<Record<Intent, Cues>> = {
  code: merged("code"),
  math: merged("math"),
  reasoning: merged("reasoning"),
  creative: merged("creative"),
  extraction: merged("extraction"),
  summarization: merged("summarization"),
  translation: merged("translation"),
};
