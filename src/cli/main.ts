/** CLI entry: parses argv, runs a command, returns the exit code. */
import { readFileSync } from 'node:fs';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === '--version' || argv[0] === '-V') {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  process.stdout.write('Usage: toolsearch [options] [command]\n');
  return 0;
}
