// `node --import ./register.mjs …`: logs the URL of every module the process
// imports to the file named by TOOLSEARCH_MODULE_LOG (one per line).
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url, { data: { log: process.env.TOOLSEARCH_MODULE_LOG } });
