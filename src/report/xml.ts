/**
 * XML text and attribute escaping for the JUnit reporter. Besides the five
 * markup characters, XML 1.0 forbids most control characters even as
 * character references, and lone surrogates are not characters at all:
 * those are written as visible escapes (`\x1b`, `\ud800`) so the document
 * stays well formed and nothing is lost silently.
 */

// Not allowed in XML 1.0: C0 controls except tab, LF, CR; U+FFFE, U+FFFF; lone surrogates.
const INVALID = new RegExp(
  String.raw`[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|` +
    String.raw`(?<![\ud800-\udbff])[\udc00-\udfff]`,
  'g',
);

function visible(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

// Allowed, but a terminal acts on them (and a parser turns a raw CR into LF): written as character references.
const TERMINAL = /[\r\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Text content: `&`, `<`, `>` escaped, invalid characters made visible, CR, C1 and bidi controls as references. */
export function xmlText(s: string): string {
  return s
    .replace(INVALID, visible)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(TERMINAL, (c) => `&#x${c.charCodeAt(0).toString(16)};`);
}

/**
 * An attribute value (for double quotes): also `"`, and line breaks and tabs as references so they survive
 * normalization.
 */
export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}
