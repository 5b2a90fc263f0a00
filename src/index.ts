/**
 * toolsearch — the library entry. Re-exports the pure core (an exact port of
 * the Eino tool search middleware); nothing here performs I/O.
 */
export * from './core/index.js';
