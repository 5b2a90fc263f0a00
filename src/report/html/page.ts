/**
 * The page shell of every HTML report: one self-contained file. The
 * Content-Security-Policy allows nothing (`default-src 'none'`) but the one
 * inline stylesheet and the one inline script, each by its SHA-256 hash, so
 * even markup that escaped escaping could neither run a script, load a
 * resource, nor send anything anywhere.
 */
import { createHash } from 'node:crypto';
import { frag, h, text, type Child, Html } from './html.js';
import { SCRIPT } from './script.js';
import { STYLE } from './style.js';

function sha256(s: string): string {
  return `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
}

/** The policy of the page (exported for tests). */
export const CSP =
  `default-src 'none'; style-src ${sha256(STYLE)}; ` +
  `script-src ${sha256(SCRIPT)}; img-src 'none'; base-uri 'none'; form-action 'none'`;

export interface PageInput {
  /** The title (plain text; escaped here). */
  readonly title: string;
  /** A class on <body> naming the report (`simulate-report`, …). */
  readonly kind: string;
  readonly body: Child;
}

/** The whole document. */
export function page(input: PageInput): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="generator" content="toolsearch">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${text(input.title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    `<body class="${input.kind}">`,
    h('main', null, input.body).html,
    `<script>${SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A labelled list of facts (`<dl class="meta">`). */
export function facts(rows: ReadonlyArray<readonly [string, Child] | null | false>): Html {
  return h(
    'dl',
    { class: 'meta' },
    rows.map((r) => (r ? frag(h('dt', null, r[0]), h('dd', null, r[1])) : null)),
  );
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The footer every report ends with. */
export function footer(what: string): Html {
  return h(
    'footer',
    null,
    `${what} · written by toolsearch · one self-contained file: no network access, readable without JavaScript`,
  );
}

/** A horizontal bar, `value` of `max`, as an SVG that stretches to its cell (CSS colours it by `cls`). */
export function bar(value: number, max: number, cls: string): Html {
  const w = max <= 0 ? 0 : Math.max(0, Math.min(100, (value / max) * 100));
  return h(
    'svg',
    {
      class: 'bar',
      viewBox: '0 0 100 8',
      preserveAspectRatio: 'none',
      width: '100%',
      height: 10,
      'aria-hidden': 'true',
    },
    h('rect', { class: cls, width: w.toFixed(2), height: 8 }),
  );
}
