/** A deterministic synthetic catalog of realistic tool names and descriptions, for responsiveness checks. */
import type { ToolInfo } from '../../../src/core/types.js';

const SERVICES = [
  'github',
  'slack',
  'linear',
  'notion',
  'jira',
  'confluence',
  'gmail',
  'calendar',
  'drive',
  'postgres',
  'stripe',
  'salesforce',
  'hubspot',
  'zendesk',
  'asana',
  'trello',
  'figma',
  'sentry',
  'datadog',
  'pagerduty',
  'aws',
  'gcp',
  'azure',
  'vercel',
  'netlify',
];
const VERBS = [
  'create',
  'get',
  'list',
  'update',
  'delete',
  'search',
  'archive',
  'assign',
  'close',
  'merge',
  'send',
  'upload',
  'download',
  'sync',
  'export',
  'import',
  'comment',
  'tag',
  'move',
  'share',
];
const NOUNS = [
  'issue',
  'pull_request',
  'message',
  'channel',
  'page',
  'database',
  'file',
  'event',
  'user',
  'team',
  'project',
  'invoice',
  'customer',
  'ticket',
  'board',
  'card',
  'alert',
  'deployment',
  'bucket',
  'record',
];
const WORDS = [
  'the',
  'a',
  'for',
  'with',
  'in',
  'of',
  'from',
  'to',
  'by',
  'returns',
  'details',
  'current',
  'workspace',
  'account',
  'optional',
  'filter',
  'pagination',
  'cursor',
  'id',
  'name',
  'status',
  'owner',
  'labels',
  'query',
  'results',
  'recent',
  'all',
  'matching',
  'given',
  'new',
];

/**
 * `n` tools: `mcp__<service>__<verb>_<noun>[_<k>]` with 15-30 word descriptions (seeded, so every run is the same
 * catalog).
 */
export function syntheticCatalog(n: number, seed = 42): ToolInfo[] {
  let x = seed >>> 0;
  const rnd = (k: number): number => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x % k;
  };
  const tools: ToolInfo[] = [];
  const seen = new Set<string>();
  while (tools.length < n) {
    const svc = SERVICES[rnd(SERVICES.length)]!;
    const verb = VERBS[rnd(VERBS.length)]!;
    const noun = NOUNS[rnd(NOUNS.length)]!;
    let name = `mcp__${svc}__${verb}_${noun}`;
    for (let k = 2; seen.has(name); k++) name = `mcp__${svc}__${verb}_${noun}_v${k}`;
    seen.add(name);
    const words = [
      verb[0]!.toUpperCase() + verb.slice(1),
      'a',
      noun.replace('_', ' '),
      'in',
      svc[0]!.toUpperCase() + svc.slice(1),
    ];
    const extra = 10 + rnd(16);
    for (let i = 0; i < extra; i++) words.push(WORDS[rnd(WORDS.length)]!);
    tools.push({
      name,
      description: `${words.join(' ')}.`,
      parameters: { type: 'object', properties: { id: { type: 'string' } } },
    });
  }
  return tools;
}
