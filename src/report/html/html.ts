/**
 * HTML built as escaped strings: every text and attribute value that is not
 * an {@link Html} fragment is escaped, so catalog and transcript text (a
 * `<script>`, a `</style>`, a quote closing an attribute) can only ever be
 * text. Characters that reorder or hide what a reader sees (bidi overrides
 * such as U+202E, C0/C1 controls, line separators, lone surrogates) are shown
 * as visible escapes (`\u202e`), as on the terminal. Links only point inside
 * the page: an `href` that is not a fragment (`#call-3`) is refused, so no
 * data can become a `javascript:` or network URL.
 */
import { escapeText } from '../../io/escape.js';

/** A trusted fragment of markup (built by {@link h} or by this module). */
export class Html {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}

export type Child = string | number | Html | null | undefined | false | readonly Child[];
export type AttrValue = string | number | boolean | null | undefined;

const MARKUP: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Markup characters as references. */
function markup(s: string): string {
  return s.replace(/[&<>"']/g, (c) => MARKUP[c]!);
}

/** Text for an element's content: unsafe characters made visible, then markup escaped. Line breaks are kept. */
export function text(s: string): string {
  return markup(s.split('\n').map(escapeText).join('\n'));
}

/** Text for one line (a name, a query): line breaks and tabs shown as `\n`, `\t` too. */
export function lineText(s: string): string {
  return markup(escapeText(s));
}

const TAG = /^[a-z][a-z0-9-]*$/;
/** Attribute names: SVG's are mixed case (`viewBox`). */
const ATTR = /^[a-zA-Z][a-zA-Z0-9-]*$/;
/** Elements whose content is not parsed as markup: never built from data. */
const RAW_TEXT = new Set([
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'plaintext',
  'noscript',
]);
const VOID = new Set(['br', 'hr', 'meta', 'input', 'col', 'wbr']);

/** Joins children: strings are escaped as one-line text unless they hold line breaks (then kept as breaks). */
function children(list: readonly Child[]): string {
  let out = '';
  for (const c of list) {
    if (c === null || c === undefined || c === false) continue;
    if (c instanceof Html) out += c.html;
    else if (typeof c === 'number') out += String(c);
    else if (typeof c === 'string') out += text(c);
    else out += children(c);
  }
  return out;
}

/**
 * An element. Attribute names and the tag are code, checked; values are
 * escaped; `true` writes a bare attribute, `false`/null/undefined none.
 */
export function h(tag: string, attrs: Readonly<Record<string, AttrValue>> | null, ...content: Child[]): Html {
  if (!TAG.test(tag) || RAW_TEXT.has(tag)) throw new Error(`html: tag ${tag} is not built from data`);
  let open = `<${tag}`;
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (
      !ATTR.test(name) ||
      /^on/i.test(name) ||
      /^(style|src|srcdoc|srcset|action|formaction|xmlns|data)$/i.test(name)
    ) {
      throw new Error(`html: attribute ${name} is not written by the reports`);
    }
    if (/^(href|xlink:href)$/i.test(name) && (typeof value !== 'string' || !/^#[A-Za-z0-9_-]*$/.test(value))) {
      throw new Error(`html: a link must point inside the page (#id), not ${String(value)}`);
    }
    open += value === true ? ` ${name}` : ` ${name}="${lineText(String(value))}"`;
  }
  if (VOID.has(tag)) return new Html(`${open}>`);
  return new Html(`${open}>${children(content)}</${tag}>`);
}

/** Several fragments as one. */
export function frag(...content: Child[]): Html {
  return new Html(children(content));
}

/** A fragment id made of safe characters only (data never reaches an id unescaped). */
export function idFor(...parts: ReadonlyArray<string | number>): string {
  return parts.map((p) => String(p).replace(/[^A-Za-z0-9_-]/g, '_')).join('-');
}
