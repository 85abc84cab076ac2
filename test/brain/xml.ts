/**
 * A small XML 1.0 well-formedness parser for the badge tests (no dependency): one root element,
 * properly nested and closed tags, quoted unique attributes, only the five named entities and
 * character references, no raw `<` or `&` in text or attribute values, no forbidden characters.
 * It throws on the first violation and returns the element tree with entities decoded.
 */

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The decoded text directly inside this element. */
  text: string;
}

const NAME = /^[A-Za-z_:][A-Za-z0-9_:.-]*/;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

function decode(raw: string, where: string): string {
  if (FORBIDDEN.test(raw)) throw new Error(`forbidden character in ${where}`);
  if (raw.includes("<")) throw new Error(`raw "<" in ${where}`);
  return raw.replace(/&([^;]*);|&/g, (match, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`bare "&" in ${where}`);
    if (ref in ENTITIES) return ENTITIES[ref]!;
    const code = /^#x[0-9A-Fa-f]+$/.test(ref) ? parseInt(ref.slice(2), 16) : /^#[0-9]+$/.test(ref) ? parseInt(ref.slice(1), 10) : NaN;
    if (Number.isNaN(code)) throw new Error(`unknown entity ${match} in ${where}`);
    return String.fromCodePoint(code);
  });
}

export function parseXml(source: string): XmlElement {
  let pos = 0;
  const rest = () => source.slice(pos);
  const skipMisc = () => {
    for (;;) {
      const ws = /^\s*/.exec(rest())![0];
      pos += ws.length;
      if (rest().startsWith("<?")) pos = source.indexOf("?>", pos) + 2;
      else if (rest().startsWith("<!--")) pos = source.indexOf("-->", pos) + 3;
      else return;
      if (pos < 2) throw new Error("unterminated declaration or comment");
    }
  };

  const element = (): XmlElement => {
    if (source[pos] !== "<") throw new Error(`expected "<" at ${pos}`);
    pos++;
    const name = NAME.exec(rest())?.[0];
    if (!name) throw new Error(`bad element name at ${pos}`);
    pos += name.length;
    const el: XmlElement = { name, attrs: {}, children: [], text: "" };
    for (;;) {
      const ws = /^\s*/.exec(rest())![0];
      pos += ws.length;
      if (rest().startsWith("/>")) {
        pos += 2;
        return el;
      }
      if (source[pos] === ">") {
        pos++;
        break;
      }
      if (!ws) throw new Error(`attributes need white space before them, at ${pos}`);
      const attr = NAME.exec(rest())?.[0];
      if (!attr) throw new Error(`bad attribute name at ${pos} in <${name}>`);
      pos += attr.length;
      const eq = /^\s*=\s*(["'])/.exec(rest());
      if (!eq) throw new Error(`attribute ${attr} of <${name}> is not quoted`);
      pos += eq[0].length;
      const end = source.indexOf(eq[1]!, pos);
      if (end < 0) throw new Error(`unterminated attribute ${attr}`);
      if (attr in el.attrs) throw new Error(`duplicate attribute ${attr} in <${name}>`);
      el.attrs[attr] = decode(source.slice(pos, end), `attribute ${attr} of <${name}>`);
      pos = end + 1;
    }
    for (;;) {
      const next = source.indexOf("<", pos);
      if (next < 0) throw new Error(`<${name}> is never closed`);
      el.text += decode(source.slice(pos, next), `text of <${name}>`);
      pos = next;
      if (rest().startsWith("</")) {
        pos += 2;
        const close = NAME.exec(rest())?.[0];
        if (close !== name) throw new Error(`</${close}> closes <${name}>`);
        pos += close.length;
        const gt = /^\s*>/.exec(rest());
        if (!gt) throw new Error(`bad closing tag </${name}`);
        pos += gt[0].length;
        return el;
      }
      if (rest().startsWith("<!--")) {
        const end = source.indexOf("-->", pos);
        if (end < 0) throw new Error("unterminated comment");
        pos = end + 3;
      } else el.children.push(element());
    }
  };

  skipMisc();
  const root = element();
  skipMisc();
  if (pos !== source.length) throw new Error(`content after the root element at ${pos}`);
  return root;
}

/** Every element of the tree, depth first. */
export function allElements(el: XmlElement): XmlElement[] {
  return [el, ...el.children.flatMap(allElements)];
}
