/**
 * The cache-tampering mode of the fuzzer (`--cache-tamper`): between runs,
 * the files of the run's cache directory (catalog entries, CACHEDIR.TAG,
 * Node's compile cache under `compiled/` where Node has one) are damaged the
 * ways a disk, a crash or a hand could: a bit flipped, truncated, emptied,
 * replaced by random bytes or by another cache file, garbage appended, the
 * JSON of a catalog entry edited *with its checksum made again* (so
 * the decoder's own checks are what stands: deep nesting, repeated or empty
 * names, wrong types, prototype keys, lone surrogates), made writable by
 * others, replaced by a symbolic link or a directory. The CLI must still
 * exit 0, 1 or 2 cleanly, and (checked by fuzz.mjs) answer exactly as it did
 * before the damage.
 */
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { checksum } from '../../dist/cli/catalog-cache.js';

/** Every regular file under `dir` (symbolic links and directories left by earlier tampering are not followed). */
function cacheFiles(dir) {
  const out = [];
  const walk = (d) => {
    let names;
    try {
      names = readdirSync(d).sort();
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out;
}

function randomBytes(rng, n) {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = rng.int(256);
  return b;
}

/**
 * A JSON edit of a catalog entry (`{sum, v, settings, result: {format, warnings, shape, tools: [{name,
 * description, static, line, column, parameters?}]}, text}`), its checksum made again: `{what, refused}`.
 * A refused edit is one the decoder must turn down (so the answer cannot change); the others forge an
 * entry that is well-formed — what only someone who can write the user's own cache can do, outside what
 * a cache can defend against — and test that its text still reaches the terminal escaped.
 */
function editEntry(rng, e) {
  const r = e.result !== null && typeof e.result === 'object' ? e.result : (e.result = {});
  const tools = Array.isArray(r.tools) ? r.tools : (r.tools = []);
  const t = tools.length > 0 ? rng.pick(tools) : null;
  const refused = (what) => ({ what, refused: true });
  const forged = (what) => ({ what, refused: false });
  if (t === null || typeof t !== 'object') {
    r.tools = [{ name: '', description: 'd', static: false, line: 1, column: 1 }];
    return refused('an empty name');
  }
  switch (rng.int(13)) {
    case 0:
      t.parameters = JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`);
      return refused('deep parameters');
    case 1:
      if (tools.length > 1) tools[1].name = tools[0].name;
      else tools.push({ ...t });
      return refused('a name twice');
    case 2:
      t.name = '';
      return refused('an empty name');
    case 3: {
      const key = rng.pick(['name', 'description', 'static', 'line', 'column']);
      t[key] =
        key === 'name' || key === 'description'
          ? rng.pick([null, 7, {}, [], true])
          : rng.pick([null, -1, 1.5, '3', {}, key === 'static' ? 0 : 'x']);
      return refused(`${key} of another type`);
    }
    case 4:
      t.name = `${t.name}\ud800`;
      return refused('a lone surrogate');
    case 5:
      r.format = rng.pick(['zzz', null, 3]);
      return refused('a format');
    case 6:
      e.v = rng.pick([3, 5, '4', null]);
      return refused('a version');
    case 7:
      r.warnings = rng.pick([[3], 'w', null, [null]]);
      return refused('warnings of another type');
    case 8:
      r.tools = rng.pick([null, {}, [[]], [{ name: 'a' }], 'x']);
      return refused('tools');
    case 9:
      e.settings = `${e.settings} `;
      return refused('settings');
    case 10:
      t.description = `\u001b[2J${'x'.repeat(rng.range(0, 100_000))}\u202e`;
      return forged('a hostile description');
    case 11:
      r.warnings = [`\u001b]0;x\u0007`, '\u009b31m'];
      return forged('hostile warnings');
    default:
      t.parameters = JSON.parse(
        '{"__proto__": {"polluted": 1}, "constructor": {"prototype": 2}, "\\u001b[31m": "\\u202e"}',
      );
      return forged('prototype keys');
  }
}

/** An entry's JSON made again after an edit, with the checksum src/cli/catalog-cache.ts writes. */
function entryBytes(e) {
  const body = Buffer.from(
    `"v":${JSON.stringify(e.v)},"settings":${JSON.stringify(e.settings)},"result":${JSON.stringify(e.result)}`,
  );
  return Buffer.concat([
    Buffer.from(`{"sum":"${checksum(body)}",`),
    body,
    Buffer.from(`,"text":${JSON.stringify(e.text)}}`),
  ]);
}

/**
 * Damages 1–3 files of the cache in `dir`. Returns `{done, forged}`: what was
 * done (for the failure report), and the files holding a well-formed forged
 * entry with their original bytes (the caller puts them back after one run:
 * such an entry may change the answer, see {@link editHeader}).
 */
export function tamperCache(dir, rng) {
  const files = cacheFiles(dir);
  const done = [];
  const forged = [];
  if (files.length === 0) return { done, forged };
  for (let k = rng.range(1, Math.min(3, files.length)); k > 0; k--) {
    const f = rng.pick(files);
    const name = f.slice(dir.length + 1);
    let data;
    try {
      data = readFileSync(f);
    } catch {
      continue;
    }
    // The tag is damaged in its bytes only: a tag made a directory or a link leaves the directory not
    // ours for good (refused, as it must be), and every later run of the fuzz would then test nothing.
    const tag = name === 'CACHEDIR.TAG';
    const op = rng.weighted([
      [4, 'flip'],
      [3, 'truncate'],
      [1, 'empty'],
      [2, 'random'],
      [2, 'swap'],
      [1, 'append'],
      [tag ? 0 : 6, 'entry'],
      [1, 'mode'],
      [tag ? 0 : 1, 'symlink'],
      [tag ? 0 : 1, 'directory'],
    ]);
    try {
      switch (op) {
        case 'flip': {
          if (data.length === 0) break;
          const at = rng.int(data.length);
          data[at] ^= 1 << rng.int(8);
          writeFileSync(f, data);
          break;
        }
        case 'truncate':
          truncateSync(f, rng.int(data.length + 1));
          break;
        case 'empty':
          writeFileSync(f, '');
          break;
        case 'random':
          writeFileSync(f, randomBytes(rng, rng.range(1, 4096)));
          break;
        case 'swap':
          writeFileSync(f, readFileSync(rng.pick(files)));
          break;
        case 'append':
          writeFileSync(f, Buffer.concat([data, randomBytes(rng, rng.range(1, 64))]));
          break;
        case 'entry': {
          let e;
          try {
            e = JSON.parse(data.toString('utf8'));
          } catch {
            e = null;
          }
          if (e === null || typeof e !== 'object' || typeof e.text !== 'string') {
            if (data.length > 0) data[0] ^= 1;
            writeFileSync(f, data);
            break;
          }
          const { what, refused } = editEntry(rng, e);
          writeFileSync(f, entryBytes(e));
          if (!refused) forged.push([f, data]);
          done.push(`entry ${name}: ${what}${refused ? '' : ' (forged)'}`);
          continue;
        }
        case 'mode':
          chmodSync(f, 0o666);
          break;
        case 'symlink':
          rmSync(f, { force: true });
          symlinkSync(rng.chance(0.5) ? rng.pick(files) : '/etc/hostname', f);
          break;
        case 'directory':
          rmSync(f, { force: true });
          mkdirSync(f);
          break;
      }
      done.push(`${op} ${name}`);
    } catch (err) {
      done.push(`${op} ${name} (failed: ${err.code ?? err.message})`);
    }
  }
  return { done, forged };
}

/** Puts back the files {@link tamperCache} forged (a run may have replaced them meanwhile: ours win). */
export function restoreForged(forged) {
  for (const [f, data] of forged) {
    try {
      rmSync(f, { recursive: true, force: true });
      writeFileSync(f, data, { mode: 0o600 });
    } catch {
      // the directory is gone or not writable: the next tampering finds what is there
    }
  }
}
