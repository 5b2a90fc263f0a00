/**
 * A minimal, strict XML 1.0 parser for the JUnit tests (no dependency): it
 * accepts only well-formed documents (one root, balanced tags, quoted
 * attributes, known entities, no characters XML forbids) and returns the
 * element tree with entities decoded.
 */
export interface XmlElement {
  readonly name: string;
  readonly attrs: Record<string, string>;
  readonly children: XmlElement[];
  /** Concatenated text content of this element (not of its children). */
  text: string;
}

const NAME = /^[A-Za-z_:][-A-Za-z0-9_.:]*/;
// Characters XML 1.0 allows: tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF.
const ALLOWED = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;

function decodeEntities(s: string, at: number): string {
  return s.replace(/&([^;]*);|&/g, (m, ent: string | undefined) => {
    if (ent === undefined) throw new Error(`bare & near offset ${at}`);
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (ent in named) return named[ent]!;
    const num = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(ent);
    if (!num) throw new Error(`unknown entity &${ent}; near offset ${at}`);
    const cp = num[1] !== undefined ? parseInt(num[1], 16) : parseInt(num[2]!, 10);
    const ch = String.fromCodePoint(cp);
    if (!ALLOWED.test(ch)) throw new Error(`character reference to a forbidden character &${ent};`);
    return ch;
  });
}

export function parseXml(doc: string): XmlElement {
  if (!ALLOWED.test(doc)) throw new Error('document holds characters XML forbids');
  let i = 0;
  const skipWs = (): void => {
    while (i < doc.length && /\s/.test(doc[i]!)) i++;
  };
  if (doc.startsWith('<?xml')) {
    const end = doc.indexOf('?>');
    if (end < 0) throw new Error('unterminated XML declaration');
    i = end + 2;
  }
  skipWs();
  const element = (): XmlElement => {
    if (doc[i] !== '<') throw new Error(`expected < at ${i}`);
    i++;
    const m = NAME.exec(doc.slice(i));
    if (!m) throw new Error(`expected an element name at ${i}`);
    const name = m[0];
    i += name.length;
    const attrs: Record<string, string> = {};
    for (;;) {
      const before = i;
      skipWs();
      if (doc.startsWith('/>', i)) {
        i += 2;
        return { name, attrs, children: [], text: '' };
      }
      if (doc[i] === '>') {
        i++;
        break;
      }
      if (i === before) throw new Error(`expected white space before an attribute at ${i}`);
      const a = NAME.exec(doc.slice(i));
      if (!a) throw new Error(`expected an attribute name at ${i}`);
      i += a[0].length;
      if (doc[i] !== '=') throw new Error(`expected = at ${i}`);
      i++;
      const q = doc[i];
      if (q !== '"' && q !== "'") throw new Error(`unquoted attribute at ${i}`);
      const end = doc.indexOf(q, i + 1);
      if (end < 0) throw new Error('unterminated attribute');
      const raw = doc.slice(i + 1, end);
      if (raw.includes('<')) throw new Error(`< inside an attribute at ${i}`);
      if (a[0] in attrs) throw new Error(`duplicate attribute ${a[0]}`);
      attrs[a[0]] = decodeEntities(raw, i);
      i = end + 1;
    }
    const el: XmlElement = { name, attrs, children: [], text: '' };
    for (;;) {
      const lt = doc.indexOf('<', i);
      if (lt < 0) throw new Error(`unclosed element ${name}`);
      const text = doc.slice(i, lt);
      if (text.includes(']]>')) throw new Error('"]]>" in text');
      el.text += decodeEntities(text, i);
      i = lt;
      if (doc.startsWith('</', i)) {
        i += 2;
        if (!doc.startsWith(name, i)) throw new Error(`mismatched end tag at ${i}: expected </${name}>`);
        i += name.length;
        skipWs();
        if (doc[i] !== '>') throw new Error(`expected > at ${i}`);
        i++;
        return el;
      }
      if (doc.startsWith('<!--', i)) {
        const end = doc.indexOf('-->', i);
        if (end < 0) throw new Error('unterminated comment');
        i = end + 3;
        continue;
      }
      el.children.push(element());
    }
  };
  const root = element();
  skipWs();
  if (i !== doc.length) throw new Error(`content after the root element at ${i}`);
  return root;
}
