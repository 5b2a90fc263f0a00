// Module hooks for trace-modules.mjs: records resolved URLs (runs off the main thread).
import { appendFileSync } from 'node:fs';

let file = null;
export function initialize(data) {
  file = data.file;
}
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (file) appendFileSync(file, `${result.url}\n`);
  return result;
}
