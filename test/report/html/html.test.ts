/**
 * The HTML building blocks without a browser: escaping of text and
 * attributes, the refusals of h() (links out of the page, handlers, style
 * and src attributes, raw-text elements), the page's policy hashes, and the
 * rendered reports holding one script, one stylesheet and no URL.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogFiles } from '../../../src/formats/catalog.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import { frag, h, idFor, lineText, text } from '../../../src/report/html/html.js';
import { CSP, page } from '../../../src/report/html/page.js';
import { SCRIPT } from '../../../src/report/html/script.js';
import { STYLE } from '../../../src/report/html/style.js';
import { renderSimulationHtml } from '../../../src/report/html/simulate.js';
import { simulate } from '../../../src/jobs/simulate/engine.js';
import { ROOT } from '../../cli/helpers.js';
import { findChromium } from './browser.js';

describe('text and attributes', () => {
  it.each([
    ['<script>window.pwned=1</script>', '&lt;script&gt;window.pwned=1&lt;/script&gt;'],
    ['</style>', '&lt;/style&gt;'],
    [`a "quoted" 'one' & more`, 'a &quot;quoted&quot; &#39;one&#39; &amp; more'],
    ['txt\u202egnp.exe', 'txt\\u202egnp.exe'],
    ['nul\u0000 esc\u001b[31m c1\u009b', 'nul\\x00 esc\\x1b[31m c1\\x9b'],
    ['line\u2028sep \u2066iso\u2069', 'line\\u2028sep \\u2066iso\\u2069'],
    ['lone \ud800 surrogate', 'lone \\ud800 surrogate'],
    ['two\nlines', 'two\nlines'],
  ])('text(%j)', (input, expected) => {
    expect(text(input)).toBe(expected);
  });

  it('lineText shows line breaks and tabs as escapes', () => {
    expect(lineText('a\nb\tc')).toBe('a\\nb\\tc');
  });

  it('escapes attribute values and children built from data', () => {
    expect(h('td', { title: 'x" onmouseover="alert(1)' }, '<b>').html).toBe(
      '<td title="x&quot; onmouseover=&quot;alert(1)">&lt;b&gt;</td>',
    );
    expect(h('p', null, 'a', 1, null, false, undefined, ['b', h('i', null, 'c')]).html).toBe('<p>a1b<i>c</i></p>');
    expect(frag('<', h('br', null)).html).toBe('&lt;<br>');
    expect(h('input', { type: 'checkbox', checked: true, hidden: false }).html).toBe('<input type="checkbox" checked>');
  });

  it('links only inside the page', () => {
    expect(h('a', { href: '#call-2' }, 'call 2').html).toBe('<a href="#call-2">call 2</a>');
    for (const href of [
      'javascript:alert(1)',
      'JAVASCRIPT:x',
      'http://example.com/',
      '//evil',
      'data:text/html,x',
      '#a b',
      '#"x',
    ]) {
      expect(() => h('a', { href }, 'x')).toThrow(/must point inside the page/);
    }
  });

  it('refuses handlers, style, src and raw-text elements', () => {
    for (const name of ['onclick', 'ONLOAD', 'style', 'src', 'srcdoc', 'action', 'formaction', 'a b', 'x"']) {
      expect(() => h('div', { [name]: 'x' })).toThrow(/html: attribute/);
    }
    for (const tag of ['script', 'style', 'title', 'textarea', 'iframe', 'noscript', 'Script', 'a b']) {
      expect(() => h(tag, null)).toThrow(/html: tag/);
    }
  });

  it('ids from data keep safe characters only', () => {
    expect(idFor('call', 3)).toBe('call-3');
    expect(idFor('line', '<x y>')).toBe('line-_x_y_');
  });
});

describe('the page', () => {
  const sha = (s: string): string => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

  it('allows nothing but its own stylesheet and script, by hash', () => {
    expect(CSP).toBe(
      `default-src 'none'; style-src ${sha(STYLE)}; ` +
        `script-src ${sha(SCRIPT)}; img-src 'none'; base-uri 'none'; form-action 'none'`,
    );
    const doc = page({ title: 'a <title>', kind: 'k', body: h('p', null, 'x') });
    expect(doc).toContain(`<meta http-equiv="Content-Security-Policy" content="${CSP}">`);
    expect(doc).toContain(`<style>${STYLE}</style>`);
    expect(doc).toContain(`<script>${SCRIPT}</script>`);
    expect(doc).toContain('<title>a &lt;title&gt;</title>');
    // The policy comes before anything it governs.
    expect(doc.indexOf('Content-Security-Policy')).toBeLessThan(doc.indexOf('<style>'));
  });

  it('a rendered report of hostile data holds one script, one stylesheet, no URL and no handler', () => {
    const catalog = loadCatalogFiles([join(ROOT, 'fixtures/hostile/html.catalog.json')]);
    const transcript = loadTranscriptFile(join(ROOT, 'fixtures/hostile/html.transcript.json'));
    const doc = renderSimulationHtml(simulate({ transcript, catalog, mode: 'default', replay: true, details: true }));
    expect(doc.match(/<script/g)).toHaveLength(1);
    expect(doc.match(/<style/g)).toHaveLength(1);
    // Text holds no '<', so every tag of the document is one of ours.
    // Attribute values are data (escaped: no '"' inside), so they are blanked before looking at names.
    const tags = (doc.match(/<[a-z][^>]*>/gi) ?? []).map((t) => t.replace(/"[^"]*"/g, '""'));
    expect(tags.filter((t) => /\s(on[a-z]+|src|style)=/i.test(t))).toEqual([]);
    expect((doc.match(/\shref="[^"]*"/g) ?? []).filter((a) => !a.startsWith(' href="#'))).toEqual([]);
    expect(doc).not.toMatch(/url\(|@import|<link|<img|<iframe/);
    expect(doc).not.toContain('\u202e');
    expect(doc).toContain('html_&lt;script&gt;window.pwned=1&lt;/script&gt;');
  });
});

describe('the browser lookup', () => {
  it('TOOLSEARCH_CHROMIUM first; a path that does not exist is a clear failure (never a silent skip)', async () => {
    await expect(findChromium({ TOOLSEARCH_CHROMIUM: '/nonexistent/chromium', PATH: '/usr/bin' })).rejects.toThrow(
      'TOOLSEARCH_CHROMIUM is /nonexistent/chromium, which does not exist: point it at a Chromium binary',
    );
    expect(await findChromium({ TOOLSEARCH_CHROMIUM: process.execPath })).toEqual({ path: process.execPath });
  });
});
