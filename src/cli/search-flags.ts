/** The flags of `search`, apart from what runs it (search-run.ts, engine-search.ts both read them). */
import type { Expectations } from '../jobs/search/report.js';
import type { EngineFlags } from './engine-options.js';
import type { CatalogFlags } from './inputs.js';

/** The flags of `search`, as commander gives them to its action. */
export interface SearchFlags extends CatalogFlags, Expectations, EngineFlags {
  readonly maxResults?: number;
  readonly args?: string;
  readonly batch?: string;
  readonly explain?: boolean;
  readonly all?: boolean;
  readonly json?: boolean;
  readonly why?: string[];
}
