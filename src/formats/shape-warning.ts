/**
 * Catalog shape warnings: what in a tool entry of our format is not read as
 * written (an unknown key, `parameters` that is not an object). They are a
 * kind of their own, carried as structured objects beside the catalog's
 * warning lines, so `--strict` turns exactly these into errors without
 * reading any text. A module of its own so the CLI can handle them without
 * loading the format readers.
 */
import type { SourceLocation } from '../io/errors.js';

/** The end of a shape warning's line: what sets it apart for a reader. */
export const SHAPE_WARNING = 'not read as written';

/** One shape warning of a catalog tool entry. */
export interface ShapeWarning {
  /**
   * `unknown-key`: a key our format does not have (ignored); `wrong-type`: a
   * value of the wrong type (kept as given).
   */
  readonly kind: 'unknown-key' | 'wrong-type';
  /** Where: the key, or the value of the wrong type. */
  readonly location: SourceLocation;
  /** What, without the location: `tool "x": unknown key "desciption" (did you mean "description"?), ignored`. */
  readonly message: string;
}

/**
 * The warning line of `w`, as printed on stderr and listed in
 * `Catalog.warnings`: `file:line:column: message: not read as written`.
 */
export function shapeWarningText(w: ShapeWarning): string {
  return `${w.location.file}:${w.location.line}:${w.location.column}: ${w.message}: ${SHAPE_WARNING}`;
}
