/**
 * Deterministic synthetic data for benchmarks (and for tests that want a
 * large, realistic catalog): tool catalogs of any size, a query mix, and
 * agent transcripts. Everything is a pure function of its seed, so two runs
 * (or two machines) measure exactly the same inputs.
 *
 * Shapes follow real catalogs: MCP-style `mcp__server__tool_name` names (with
 * the hyphens real MCP server names carry), plain snake_case, camelCase and
 * PascalCase names with acronyms (`getURL`, `HTMLParser`), descriptions of
 * 50–300 characters built from a service/verb/object vocabulary, JSON Schema
 * parameters, and a sprinkling of non-ASCII text.
 *
 * Over 400 lines: catalogs, queries and transcripts share one seeded vocabulary.
 */
import type { ChatMessage, Message, ToolInfo } from '../../src/core/types.js';

/** mulberry32: a small, fast, well-distributed 32-bit PRNG. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)]!;
  }
  /** Picks with a Zipf-like skew towards the start of the list (common words first). */
  pickSkewed<T>(xs: readonly T[]): T {
    const u = this.next();
    return xs[Math.floor(u * u * xs.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

// ---------------------------------------------------------------------------
// Vocabulary

/** Service name as it appears in MCP names, and as it is written in prose. */
const SERVICES: ReadonlyArray<readonly [string, string]> = [
  ['github', 'GitHub'],
  ['gitlab', 'GitLab'],
  ['slack', 'Slack'],
  ['linear', 'Linear'],
  ['notion', 'Notion'],
  ['jira', 'Jira'],
  ['confluence', 'Confluence'],
  ['filesystem', 'the local file system'],
  ['postgres', 'PostgreSQL'],
  ['mysql', 'MySQL'],
  ['sqlite', 'SQLite'],
  ['redis', 'Redis'],
  ['mongodb', 'MongoDB'],
  ['playwright', 'the browser'],
  ['puppeteer', 'a headless Chrome'],
  ['memory', 'the knowledge graph memory'],
  ['google-drive', 'Google Drive'],
  ['gmail', 'Gmail'],
  ['google-calendar', 'Google Calendar'],
  ['stripe', 'Stripe'],
  ['shopify', 'Shopify'],
  ['aws-s3', 'Amazon S3'],
  ['kubernetes', 'Kubernetes'],
  ['docker', 'Docker'],
  ['sentry', 'Sentry'],
  ['datadog', 'Datadog'],
  ['figma', 'Figma'],
  ['hubspot', 'HubSpot'],
  ['salesforce', 'Salesforce'],
  ['zendesk', 'Zendesk'],
  ['twilio', 'Twilio'],
  ['discord', 'Discord'],
  ['telegram', 'Telegram'],
  ['spotify', 'Spotify'],
  ['weather', 'the weather service'],
  ['google-maps', 'Google Maps'],
  ['brave-search', 'Brave Search'],
  ['fetch', 'the web'],
  ['time', 'the clock'],
  ['asana', 'Asana'],
  ['trello', 'Trello'],
  ['airtable', 'Airtable'],
  ['dropbox', 'Dropbox'],
  ['box', 'Box'],
  ['zoom', 'Zoom'],
  ['teams', 'Microsoft Teams'],
  ['outlook', 'Outlook'],
  ['onedrive', 'OneDrive'],
  ['bigquery', 'BigQuery'],
  ['snowflake', 'Snowflake'],
  ['elasticsearch', 'Elasticsearch'],
  ['pagerduty', 'PagerDuty'],
  ['cloudflare', 'Cloudflare'],
  ['vercel', 'Vercel'],
  ['netlify', 'Netlify'],
  ['supabase', 'Supabase'],
  ['firebase', 'Firebase'],
  ['intercom', 'Intercom'],
  ['mailchimp', 'Mailchimp'],
  ['quickbooks', 'QuickBooks'],
  ['xero', 'Xero'],
  ['okta', 'Okta'],
  ['auth0', 'Auth0'],
  ['terraform', 'Terraform'],
  ['grafana', 'Grafana'],
  ['prometheus', 'Prometheus'],
  ['circleci', 'CircleCI'],
  ['jenkins', 'Jenkins'],
  ['bitbucket', 'Bitbucket'],
  ['obsidian', 'Obsidian'],
  ['todoist', 'Todoist'],
  ['youtube', 'YouTube'],
  ['reddit', 'Reddit'],
  ['wikipedia', 'Wikipedia'],
  ['arxiv', 'arXiv'],
  ['openweather', 'OpenWeather'],
  ['everything', 'the test server'],
];

/** Verbs, most common first (pickSkewed favours the start). */
const VERBS = [
  'get',
  'list',
  'create',
  'update',
  'delete',
  'search',
  'send',
  'read',
  'write',
  'add',
  'remove',
  'fetch',
  'find',
  'run',
  'query',
  'upload',
  'download',
  'move',
  'copy',
  'rename',
  'archive',
  'close',
  'open',
  'merge',
  'assign',
  'comment',
  'export',
  'import',
  'sync',
  'subscribe',
  'unsubscribe',
  'invite',
  'approve',
  'reject',
  'publish',
  'schedule',
  'cancel',
  'restore',
  'validate',
  'summarize',
  'translate',
  'describe',
  'inspect',
  'trigger',
  'retry',
  'resolve',
  'mute',
  'pin',
  'star',
  'watch',
  'fork',
  'clone',
  'tag',
  'lock',
  'unlock',
  'refund',
  'capture',
  'navigate',
  'click',
  'screenshot',
  'evaluate',
  'scroll',
  'hover',
  'type',
  'select',
  'execute',
  'explain',
  'analyze',
  'index',
  'vacuum',
  'backup',
  'scale',
  'rollback',
  'deploy',
  'build',
];

/** Objects, most common first. Multi-word objects become several name parts. */
const OBJECTS = [
  'file',
  'issue',
  'message',
  'user',
  'page',
  'project',
  'comment',
  'channel',
  'repository',
  'pull request',
  'branch',
  'commit',
  'document',
  'task',
  'event',
  'record',
  'table',
  'database',
  'directory',
  'ticket',
  'customer',
  'invoice',
  'payment',
  'order',
  'product',
  'label',
  'milestone',
  'workflow',
  'deployment',
  'pod',
  'container',
  'image',
  'bucket',
  'object',
  'alert',
  'metric',
  'log',
  'dashboard',
  'webhook',
  'note',
  'reminder',
  'contact',
  'email',
  'thread',
  'attachment',
  'folder',
  'team',
  'member',
  'role',
  'permission',
  'secret',
  'variable',
  'release',
  'tag',
  'snapshot',
  'cluster',
  'node',
  'service',
  'namespace',
  'job',
  'pipeline',
  'build',
  'artifact',
  'report',
  'query',
  'schema',
  'index',
  'entity',
  'relation',
  'observation',
  'calendar',
  'meeting',
  'recording',
  'playlist',
  'track',
  'subscription',
  'coupon',
  'refund',
  'dispute',
  'form',
  'response',
  'survey',
  'lead',
  'deal',
  'account',
  'opportunity',
  'campaign',
  'segment',
  'template',
  'element',
  'tab',
  'cookie',
  'screenshot',
  'console log',
  'network request',
  'forecast',
  'location',
  'route',
  'place',
  'search result',
  'url',
  'html',
  'json',
  'csv',
  'pdf',
  'spreadsheet',
  'cell',
  'range',
  'sheet',
  'incident',
  'on call schedule',
  'escalation policy',
  'monitor',
  'trace',
  'span',
  'error',
  'stack trace',
];

/** Qualifiers that make names longer and more specific. */
const QUALIFIERS = [
  'all',
  'open',
  'recent',
  'archived',
  'by id',
  'by name',
  'details',
  'status',
  'content',
  'metadata',
  'history',
  'batch',
  'bulk',
  'info',
  'summary',
  'stats',
  'v2',
  'async',
  'raw',
  'tree',
  'diff',
  'count',
  'members',
  'permissions',
  'settings',
  'url',
  'ids',
  'json',
  'preview',
  'for user',
  'in channel',
  'with filters',
];

const FIELDS = [
  'id',
  'title',
  'name',
  'status',
  'owner',
  'created_at',
  'updated_at',
  'labels',
  'assignee',
  'body',
  'url',
  'size',
  'path',
  'email',
  'amount',
  'currency',
  'priority',
  'due date',
  'tags',
  'description',
  'author',
  'timestamp',
  'region',
  'version',
  'parent',
  'cursor',
  'limit',
  'offset',
  'query',
  'filter',
  'sort order',
];

const SENTENCES: ReadonlyArray<(r: Rng, obj: string, svc: string) => string> = [
  (r) => `Returns the ${r.pick(FIELDS)}, ${r.pick(FIELDS)} and ${r.pick(FIELDS)} of each result.`,
  () => 'Supports pagination with a cursor; pass the next_cursor of the previous page.',
  (_r, obj) => `Use this when the user asks about a specific ${obj}.`,
  (r) => `Requires the ${r.pick(['read', 'write', 'admin', 'repo', 'chat:write', 'files.read', 'users:read'])} scope.`,
  (r) => `Results are sorted by ${r.pick(FIELDS)} (newest first) and limited to ${r.int(10, 500)} items.`,
  (_r, obj, svc) => `Fails if the ${obj} does not exist or the token has no access to it in ${svc}.`,
  (r) => `Optional filters: ${r.pick(FIELDS)}, ${r.pick(FIELDS)}.`,
  () => 'This operation is idempotent and safe to retry.',
  () => 'Rate limited: at most 60 calls per minute.',
  (_r, obj) => `Prefer the batch variant when changing more than one ${obj}.`,
  (r) => `Dates use ISO 8601; times are in ${r.pick(['UTC', 'the workspace time zone', 'local time'])}.`,
  (r, obj) => `The ${obj} ${r.pick(FIELDS)} must be unique.`,
  () => 'Destructive: ask the user for confirmation first.',
  (r) => `Large payloads are truncated to ${r.int(1, 64)} KB.`,
  (_r, _obj, svc) => `Works with ${svc} cloud and self-hosted instances.`,
];

/** Occasional non-ASCII prose (accents, CJK, emoji, long s, dotted I), as real catalogs have. */
const UNICODE_BITS = [
  'café',
  'naïve',
  'Zürich',
  'Ångström',
  'résumé',
  'São Paulo',
  '検索',
  'ファイル',
  '数据库',
  'données',
  'Straße',
  '🚀 fast',
  'İstanbul',
  'ΣΊΣΥΦΟΣ',
  'Ünicode',
  'señal',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'ﬁle',
  'Ⅻ',
];

const ACRONYMS = ['URL', 'HTML', 'JSON', 'API', 'SQL', 'PDF', 'CSV', 'HTTP', 'ID', 'S3', 'DNS', 'SSH', 'XML'];

function words(s: string): string[] {
  return s.split(' ').filter((w) => w !== '');
}

function snake(ws: readonly string[]): string {
  return ws.join('_');
}

function cap(w: string): string {
  return w.charAt(0).toUpperCase() + w.slice(1);
}

function camel(ws: readonly string[], pascal: boolean): string {
  return ws.map((w, i) => (i === 0 && !pascal ? w : cap(w))).join('');
}

/** A generated tool; `static` marks a few always-visible tools (ignored by the core index). */
export interface BenchTool extends ToolInfo {
  readonly parameters: {
    type: 'object';
    properties: Record<string, { type: string; description: string }>;
    required: string[];
  };
}

/** Server names for large catalogs: the base services, then instances (`github-enterprise-3`, `acme-crm`). */
function serverName(r: Rng, i: number): readonly [string, string] {
  if (i < SERVICES.length) return SERVICES[i]!;
  const [base, prose] = r.pick(SERVICES);
  const flavour = r.pick([
    'enterprise',
    'eu',
    'us',
    'staging',
    'internal',
    'acme',
    'contoso',
    'globex',
    'initech',
    'legacy',
    'sandbox',
  ]);
  return [`${base}-${flavour}-${i}`, `${prose} (${flavour} ${i})`];
}

function description(r: Rng, verb: string, obj: string, quals: readonly string[], svcProse: string): string {
  const what = quals.length > 0 ? `${obj} ${quals.join(' ')}` : obj;
  const lead = `${cap(verb)} ${r.chance(0.5) ? 'a' : 'the'} ${what} in ${svcProse}.`;
  const target = r.int(50, 300);
  let text = lead;
  while (text.length < target - 20) {
    const s = r.pick(SENTENCES)(r, obj, svcProse);
    if (text.length + 1 + s.length > 300) break;
    text += ` ${s}`;
  }
  if (r.chance(0.03)) {
    const bit = r.pick(UNICODE_BITS);
    if (text.length + bit.length + 3 <= 300) text += ` (${bit})`;
  }
  if (text.length < 50)
    text += ' Returns the result as JSON, with ids and links.'.slice(0, Math.max(0, 60 - text.length));
  return text.slice(0, 300);
}

function parameters(r: Rng, obj: string): BenchTool['parameters'] {
  const props: Record<string, { type: string; description: string }> = {};
  const n = r.int(1, 4);
  const required: string[] = [];
  for (let i = 0; i < n; i++) {
    const f = r.pick(FIELDS).replace(/ /g, '_');
    props[f] = {
      type: r.pick(['string', 'string', 'integer', 'boolean']),
      description: `The ${obj} ${f.replace(/_/g, ' ')}.`,
    };
    if (i === 0) required.push(f);
  }
  return { type: 'object', properties: props, required };
}

/**
 * A catalog of `size` tools with unique names. Tools come in server groups
 * (as real catalogs do: all of one MCP server's tools together), about 60%
 * MCP-style names, 20% snake_case, 20% camel/PascalCase with acronyms.
 */
export function generateCatalog(size: number, seed = 1): BenchTool[] {
  const r = new Rng(seed * 7919 + size);
  const tools: BenchTool[] = [];
  const names = new Set<string>();
  let serverIndex = 0;
  while (tools.length < size) {
    const [svc, svcProse] = serverName(r, serverIndex++);
    const groupSize = Math.min(size - tools.length, r.int(5, 40));
    const style = r.next();
    for (let g = 0; g < groupSize; g++) {
      const verb = r.pickSkewed(VERBS);
      const obj = r.pickSkewed(OBJECTS);
      const quals = r.chance(0.35) ? [r.pick(QUALIFIERS)] : [];
      const ws = [verb, ...words(obj), ...quals.flatMap(words)];
      let name: string;
      if (style < 0.6) {
        const toolPart = r.chance(0.1) ? ws.join('-') : snake(ws);
        name = `mcp__${svc}__${toolPart}`;
      } else if (style < 0.8) {
        name = r.chance(0.5) ? snake([svc.replace(/-/g, '_'), ...ws]) : snake(ws);
      } else {
        const cw = ws.map((w) => (r.chance(0.15) ? r.pick(ACRONYMS) : w));
        name = camel(cw, r.chance(0.25));
        if (r.chance(0.3)) name = `${svc.replace(/-/g, '_')}_${name}`;
      }
      let unique = name;
      for (let k = 2; names.has(unique); k++) unique = `${name}_${k}`;
      names.add(unique);
      tools.push({
        name: unique,
        description: r.chance(0.02) ? '' : description(r, verb, obj, quals, svcProse),
        parameters: parameters(r, obj),
      });
    }
  }
  return tools;
}

/**
 * The catalog shapes that made `lint` quadratic (issue 14, finding 4), with
 * the names of {@link generateCatalog}: `shared` — every tool has the same
 * description; `few` — 97 distinct descriptions, in turn; `unique` — the
 * generated descriptions, as they are (almost all distinct).
 */
export type LintShape = 'shared' | 'few' | 'unique';
export const LINT_SHAPES: readonly LintShape[] = ['shared', 'few', 'unique'];

export function generateLintCatalog(size: number, shape: LintShape, seed = 1): BenchTool[] {
  const tools = generateCatalog(size, seed);
  if (shape === 'unique') return tools;
  const descriptions = tools.map((t) => t.description).filter((d) => d !== '');
  const distinct = shape === 'shared' ? descriptions.slice(0, 1) : [...new Set(descriptions)].slice(0, 97);
  return tools.map((t, i) => ({ ...t, description: distinct[i % distinct.length]! }));
}

// ---------------------------------------------------------------------------
// Queries

/** One benchmark query: the raw `tool_search` arguments, and the decoded query and limit. */
export interface BenchQuery {
  readonly kind: 'keyword' | 'required' | 'select' | 'no-hit' | 'partial' | 'name-like' | 'short' | 'unicode' | 'long';
  readonly query: string;
  /** As the model sent it (null: absent, so 5 applies). */
  readonly maxResults: number | null;
  /** Raw arguments JSON. */
  readonly args: string;
}

const NONSENSE = ['xyzzy', 'qwertyuiop', 'zzgrault', 'blorptastic', 'quuxify', 'frobnicate9', 'wibblewobble', 'kjhgf'];
const PARTIALS = [
  'repo',
  'notif',
  'msg',
  'cal',
  'attach',
  'deploy',
  'sched',
  'subscr',
  'perm',
  'conf',
  'pull',
  'req',
  'pay',
];
const SHORTS = ['db', 's3', 'pr', 'ai', 'id', 'ci', 'k8s', 'url', 'log', 'git', 'api', 'sql'];

/**
 * A fixed query mix for a catalog: 1–4 keywords from the catalog's own
 * vocabulary, some `+required`, some `select:` (a few naming unknown tools),
 * some that hit nothing, partial words, name-like keywords, very short
 * keywords, mixed case and non-ASCII.
 */
export function generateQueries(catalog: readonly ToolInfo[], count: number, seed = 1): BenchQuery[] {
  const r = new Rng(seed * 104729 + catalog.length);
  const vocab = [
    ...VERBS.slice(0, 30),
    ...OBJECTS.slice(0, 60).flatMap(words),
    ...SERVICES.slice(0, 40).map(([s]) => s.split('-')[0]!),
  ];
  const out: BenchQuery[] = [];
  for (let i = 0; i < count; i++) {
    const u = r.next();
    let kind: BenchQuery['kind'];
    let query: string;
    if (u < 0.3) {
      kind = 'keyword';
      const n = r.int(1, 2);
      query = Array.from({ length: n }, () => r.pickSkewed(vocab)).join(' ');
    } else if (u < 0.42) {
      kind = 'long';
      const n = r.int(3, 4);
      query = Array.from({ length: n }, () => r.pickSkewed(vocab)).join(' ');
    } else if (u < 0.54) {
      kind = 'required';
      const svc = r.pick(SERVICES.slice(0, 40))[0].split('-')[0]!;
      query = `+${svc} ${r.pickSkewed(VERBS)}${r.chance(0.5) ? ` ${words(r.pickSkewed(OBJECTS))[0]!}` : ''}`;
      if (r.chance(0.2)) query = `+${r.pickSkewed(VERBS)} +${words(r.pickSkewed(OBJECTS))[0]!}`;
    } else if (u < 0.62) {
      kind = 'select';
      const n = r.int(1, 3);
      const names = Array.from({ length: n }, () => (r.chance(0.85) ? r.pick(catalog).name : r.pick(NONSENSE)));
      query = `select:${names.join(r.chance(0.5) ? ',' : ', ')}`;
    } else if (u < 0.7) {
      kind = 'no-hit';
      query = r.chance(0.5) ? r.pick(NONSENSE) : `${r.pick(NONSENSE)} ${r.pick(NONSENSE)}`;
      if (r.chance(0.3)) query = `+${r.pick(NONSENSE)} ${r.pickSkewed(VERBS)}`;
    } else if (u < 0.8) {
      kind = 'partial';
      query = r.chance(0.5) ? r.pick(PARTIALS) : `${r.pick(PARTIALS)} ${r.pick(PARTIALS)}`;
    } else if (u < 0.88) {
      kind = 'name-like';
      const t = r.pick(catalog).name;
      const opts = [
        t,
        t.split('__').pop()!,
        `${r.pickSkewed(VERBS)}_${words(r.pickSkewed(OBJECTS)).join('_')}`,
        camel([r.pickSkewed(VERBS), ...words(r.pickSkewed(OBJECTS))], false),
      ];
      query = r.pick(opts);
    } else if (u < 0.96) {
      kind = 'short';
      query = r.chance(0.5) ? r.pick(SHORTS) : `${r.pick(SHORTS)} ${r.pickSkewed(VERBS)}`;
    } else {
      kind = 'unicode';
      query = r.pick(['café', 'ZÜRICH', 'İstanbul', '検索', 'ΣΊΣΥΦΟΣ', 'Straße data', 'GitHub PR', 'ﬁle', '🚀']);
    }
    if (r.chance(0.15)) query = query.toUpperCase() === query ? query : query.replace(/^[a-z]/, (c) => c.toUpperCase());
    const maxResults = r.chance(0.7) ? null : r.pick([1, 3, 10, 20, 0, -1]);
    const args = maxResults === null ? JSON.stringify({ query }) : JSON.stringify({ query, max_results: maxResults });
    out.push({ kind, query, maxResults, args });
  }
  return out;
}

// ---------------------------------------------------------------------------
// Transcripts

/**
 * An agent conversation with exactly `calls` model calls (one per assistant
 * message, the last one a plain answer): searches (keyword and `select:`,
 * with `{"matches": [...]}` results computed by `search`), calls of loaded
 * tools and, now and then, of a tool not loaded yet.
 */
export function generateTranscript(
  catalog: readonly ToolInfo[],
  calls: number,
  search: (argsJson: string) => readonly string[] | null,
  seed = 1,
): ChatMessage[] {
  const r = new Rng(seed * 15485863 + calls);
  const queries = generateQueries(catalog, 256, seed);
  const msgs: ChatMessage[] = [
    { kind: 'chat', role: 'system', content: 'You are a helpful assistant with access to many tools.' },
    { kind: 'chat', role: 'user', content: 'Please help me with my project work today.' },
  ];
  const loaded: string[] = [];
  let id = 0;
  for (let c = 1; c <= calls; c++) {
    if (c === calls) {
      msgs.push({ kind: 'chat', role: 'assistant', content: 'All done.' });
      break;
    }
    const u = r.next();
    if (u < 0.35 || loaded.length === 0) {
      const q = r.pick(queries);
      const callId = `call_${++id}`;
      msgs.push({
        kind: 'chat',
        role: 'assistant',
        content: '',
        toolCalls: [{ id: callId, name: 'tool_search', arguments: q.args }],
      });
      const matches = search(q.args);
      const content =
        matches === null
          ? `failed to search tools`
          : JSON.stringify({ matches: matches.length === 0 ? null : matches });
      msgs.push({ kind: 'chat', role: 'tool', content, toolCallId: callId, toolName: 'tool_search' });
      if (matches) for (const m of matches) if (!loaded.includes(m)) loaded.push(m);
    } else {
      const early = r.chance(0.05);
      const name = early ? r.pick(catalog).name : r.pick(loaded);
      const callId = `call_${++id}`;
      msgs.push({
        kind: 'chat',
        role: 'assistant',
        content: r.chance(0.3) ? 'Let me do that.' : '',
        toolCalls: [{ id: callId, name, arguments: '{"id":"42"}' }],
      });
      msgs.push({
        kind: 'chat',
        role: 'tool',
        content: `{"ok":true,"result":"done ${c}"}`,
        toolCallId: callId,
        toolName: name,
      });
      if (r.chance(0.1)) msgs.push({ kind: 'chat', role: 'user', content: 'Thanks, now the next thing please.' });
    }
  }
  return msgs;
}

/**
 * Splits a transcript into what arrives before each model call (a call happens right before each assistant message).
 */
export function chunksByModelCall(messages: readonly Message[]): Message[][] {
  const chunks: Message[][] = [];
  let cur: Message[] = [];
  for (const m of messages) {
    if (m.role === 'assistant') {
      chunks.push(cur);
      cur = [];
    }
    cur.push(m);
  }
  if (cur.length > 0 && cur[cur.length - 1]!.role !== 'assistant') chunks.push(cur);
  return chunks;
}

/** A transcript as Eino messages JSON (`role`, `content`, `tool_calls`, `tool_call_id`, `tool_name`), for the CLI. */
export function toEinoJson(messages: readonly ChatMessage[]): unknown[] {
  return messages.map((m) => {
    const o: Record<string, unknown> = { role: m.role, content: m.content };
    if (m.toolCalls)
      o.tool_calls = m.toolCalls.map((t) => ({
        id: t.id,
        type: 'function',
        function: { name: t.name, arguments: t.arguments },
      }));
    if (m.toolCallId !== undefined) o.tool_call_id = m.toolCallId;
    if (m.toolName !== undefined) o.tool_name = m.toolName;
    return o;
  });
}
