/**
 * The core schema of YAML 1.2 (§10.3) as the reader resolves it: the values of plain scalars and of the
 * core tags, and tag names. It follows the `yaml` library's resolution, which the reader used before
 * js-yaml (test/io/yaml-differential.test.ts holds them to each other): `yes`/`no`/`on` stay strings,
 * `0o17` and `0x1F` are integers, text a core tag cannot read (`!!int abc`) stays text.
 */

export const YAML_TAG = 'tag:yaml.org,2002:';

export const CORE_TAGS = new Set([
  '!',
  ...['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => YAML_TAG + t),
]);

export function showTag(tag: string): string {
  return tag.startsWith(YAML_TAG) ? `!!${tag.slice(YAML_TAG.length)}` : tag;
}

/** A scalar's value under the core schema (YAML 1.2 §10.3), as the `yaml` library resolves it. */
export type Scalar = null | boolean | number | string;

const NULL = /^(?:~|[Nn]ull|NULL)?$/;

const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;

const INT_OCT = /^0o[0-7]+$/;

const INT = /^[-+]?[0-9]+$/;

const INT_HEX = /^0x[0-9a-fA-F]+$/;

const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;

const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** The core schema's implicit resolvers, in its order: a value, or `undefined` when the text is none of its kind. */
function asNull(s: string): null | undefined {
  return NULL.test(s) ? null : undefined;
}

function asBool(s: string): boolean | undefined {
  return BOOL.test(s) ? s[0] === 't' || s[0] === 'T' : undefined;
}

function asInt(s: string): number | undefined {
  if (INT_OCT.test(s)) return Number.parseInt(s.slice(2), 8);
  if (INT.test(s)) return Number.parseInt(s, 10);
  if (INT_HEX.test(s)) return Number.parseInt(s.slice(2), 16);
  return undefined;
}

function asFloat(s: string): number | undefined {
  if (FLOAT_NAN.test(s)) {
    if (s.slice(-3).toLowerCase() === 'nan') return Number.NaN;
    return s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  return FLOAT_EXP.test(s) || FLOAT.test(s) ? Number.parseFloat(s) : undefined;
}

/** `value` when a resolver matched, else the text itself. */
function orText(value: Scalar | undefined, text: string): Scalar {
  return value === undefined ? text : value;
}

/**
 * The value of a scalar: a plain one without a tag by the core schema's tests (null, bool, int, float, in
 * the schema's order), a core tag by that tag's tests (text that fails them stays text, as in the `yaml`
 * library), anything else as text.
 */
export function resolveScalar(text: string, plain: boolean, tag: string | null): Scalar {
  if (tag === null) {
    if (!plain) return text;
    // The null and bool forms are a few words (NULL and BOOL); a number starts with a digit, a sign or a dot.
    switch (text) {
      case '':
      case '~':
      case 'null':
      case 'Null':
      case 'NULL':
        return null;
      case 'true':
      case 'True':
      case 'TRUE':
        return true;
      case 'false':
      case 'False':
      case 'FALSE':
        return false;
      default: {
        const c = text.charCodeAt(0);
        const numeric = (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e;
        return numeric ? orText(asInt(text) ?? asFloat(text), text) : text;
      }
    }
  }
  switch (tag) {
    case `${YAML_TAG}null`:
      return orText(asNull(text), text);
    case `${YAML_TAG}bool`:
      return orText(asBool(text), text);
    case `${YAML_TAG}int`:
      return orText(asInt(text), text);
    case `${YAML_TAG}float`:
      return orText(asFloat(text), text);
    default:
      return text;
  }
}

/** A tag's full name (`!!str` → `tag:yaml.org,2002:str`), or null when its handle is not declared. */
export function tagName(handles: ReadonlyMap<string, string>, raw: string): string | null {
  if (raw === '!') return '!';
  if (raw.startsWith('!<') && raw.endsWith('>')) return raw.slice(2, -1);
  const cut = raw.lastIndexOf('!');
  const prefix = handles.get(raw.slice(0, cut + 1));
  if (prefix === undefined) return cut === 0 ? raw : null;
  try {
    return prefix + decodeURIComponent(raw.slice(cut + 1));
  } catch {
    return null;
  }
}
