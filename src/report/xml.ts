/**
 * XML text and attribute escaping for the JUnit reporter. Besides the five
 * markup characters, XML 1.0 forbids most control characters even as
 * character references, and lone surrogates are not characters at all:
 * those are written as visible escapes (`\x1b`, `\ud800`) so the document
 * stays well formed and nothing is lost silently.
 */

// Not allowed in XML 1.0: C0 controls except tab, LF, CR; U+FFFE, U+FFFF; lone surrogates.
const INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function visible(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Text content: `&`, `<`, `>` escaped, invalid characters made visible. */
export function xmlText(s: string): string {
  return s.replace(INVALID, visible).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value (for double quotes): also `"`, and line breaks and tabs as references so they survive normalization. */
export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
