/**
 * A writable text stream, as much of it as the CLI uses (apart from context.ts so that progress.ts needs no context).
 */
export interface OutStream {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}
