/**
 * The version of every `--json` report's shape, its first field
 * (`"schema_version": 1`). Each report has a JSON Schema in src/schemas/
 * (shipped with the package: `toolsearch/schemas/<command>.schema.json`);
 * a change that removes or retypes a field bumps this number.
 */
export const JSON_SCHEMA_VERSION = 1;
