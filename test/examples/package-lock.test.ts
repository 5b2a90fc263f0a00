// `npm install` in a fresh clone leaves package-lock.json unchanged (issue 13):
// npm rewrites the lock file when its root entry differs from package.json
// (dependencies of any kind, bin, engines, name, version, license) or when a
// dependency is not in it at the version package.json pins. Both are checked
// here without the network; every version is pinned exactly (no ranges), so
// nothing can resolve differently later.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.js';

type Deps = Record<string, string>;
interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly license?: string;
  readonly bin?: Record<string, string>;
  readonly engines?: Record<string, string>;
  readonly dependencies?: Deps;
  readonly devDependencies?: Deps;
  readonly peerDependencies?: Deps;
  readonly peerDependenciesMeta?: Record<string, unknown>;
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  name: string;
  version: string;
  lockfileVersion: number;
  packages: Record<string, Manifest & { version: string }>;
};

describe('package-lock.json matches package.json', () => {
  it('the root entry is package.json as npm records it', () => {
    expect([lock.name, lock.version, lock.lockfileVersion]).toEqual([pkg.name, pkg.version, 3]);
    const root = lock.packages['']!;
    for (const key of [
      'name',
      'version',
      'license',
      'bin',
      'engines',
      'dependencies',
      'devDependencies',
      'peerDependencies',
      'peerDependenciesMeta',
    ] as const) {
      expect(root[key], key).toEqual(pkg[key]);
    }
  });

  it('every direct dependency is pinned exactly and locked at that version', () => {
    for (const deps of [pkg.dependencies, pkg.devDependencies]) {
      for (const [name, spec] of Object.entries(deps ?? {})) {
        // An alias (`"ai-v7": "npm:ai@7.0.173"`, a second major of one package) pins its target exactly too.
        const alias = /^npm:((?:@[^/@]+\/)?[^@]+)@(.+)$/.exec(spec);
        const version = alias ? alias[2]! : spec;
        expect(version, name).toMatch(/^\d+\.\d+\.\d+(?:-[\w.]+)?$/);
        const locked = lock.packages[`node_modules/${name}`];
        expect(locked?.version, name).toBe(version);
        if (alias) expect(locked?.name, name).toBe(alias[1]);
      }
    }
  });
});
