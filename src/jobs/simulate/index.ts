/** The simulation engine and its report (the `simulate --json` contract). */
export * from './engine.js';
export type * from './report.js';
