/**
 * The definitions of another engine's own search tools, as its stack sends
 * them to the model, for token counts: the AI SDK's `toolSearch()` (its
 * description and input schema) and Mastra's `search_tools` and `load_tool`
 * (their descriptions and the JSON schemas of their zod inputs).
 */
import {
  aiSdkToolSearchDescription,
  AI_SDK_TOOL_SEARCH_PARAMETERS,
  type EngineParams,
} from '../../core/engines/index.js';
import type { ToolInfo } from '../../core/types.js';
import type { SimulationReport } from './report.js';

const MASTRA_SEARCH_DESCRIPTION =
  "Search for available tools by keyword. Use this when you need a capability you don't currently have. Returns a " +
  'list of matching tools with their names and descriptions. After finding a useful tool, use load_tool to make it ' +
  'available.';
const MASTRA_SEARCH_AUTOLOAD_DESCRIPTION =
  "Search for available tools by keyword. Use this when you need a capability you don't currently have. Returns a " +
  'list of matching tools, which are loaded automatically and become available on your next turn — no separate ' +
  'load step is required.';
const MASTRA_LOAD_DESCRIPTION =
  'Load one or more tools into your context. Call this after finding tools with search_tools. Once loaded, tools ' +
  'will be available for use. Pass a single toolName or an array of toolNames to load multiple tools at once.';

/** The engine's search tools that the report's calls were sent. */
export function engineMetaTools(report: SimulationReport, params: EngineParams = {}): ToolInfo[] {
  if (report.engine.name === 'mastra')
    return [
      {
        name: 'search_tools',
        description: params.autoLoad === true ? MASTRA_SEARCH_AUTOLOAD_DESCRIPTION : MASTRA_SEARCH_DESCRIPTION,
        parameters: {
          type: 'object',
          properties: {
            query: {
              type: 'string',
              description: 'Search keywords (e.g., "weather", "github issue", "database query")',
            },
          },
          required: ['query'],
          additionalProperties: false,
        },
      },
      {
        name: 'load_tool',
        description: MASTRA_LOAD_DESCRIPTION,
        parameters: {
          type: 'object',
          properties: {
            toolName: { type: 'string', description: 'The exact name of a tool to load (from search results)' },
            toolNames: {
              type: 'array',
              items: { type: 'string' },
              description: 'Array of exact tool names to load in one call (from search results)',
            },
          },
          additionalProperties: false,
        },
      },
    ];
  const known = new Set(report.details?.tools.static ?? []);
  const names = new Set<string>();
  for (const t of report.turns)
    for (const s of t.searches) for (const c of t.tool_calls) if (c.id === s.call_id) names.add(c.name);
  for (const n of known) names.delete(n);
  return [...(names.size > 0 ? names : ['tool_search'])].map((name) => ({
    name,
    description: aiSdkToolSearchDescription(params.maxResults ?? 5),
    parameters: JSON.parse(JSON.stringify(AI_SDK_TOOL_SEARCH_PARAMETERS)),
  }));
}
