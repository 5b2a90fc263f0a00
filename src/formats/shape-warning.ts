/**
 * The end of a catalog warning about a tool entry's keys or types (an
 * unknown key, `parameters` that is not an object): `--strict` turns these
 * into errors. A module of its own so the CLI can test warnings without
 * loading the format readers.
 */
export const SHAPE_WARNING = 'not read as written';
