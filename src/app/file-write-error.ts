/**
 * A file cosi writes for the project (a golden) that could not be written: the file as the user
 * named it, and the file system's error as `cause`. The CLI says it in one line (`cli/write-error.ts`).
 */
export class FileWriteError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(`cannot write ${file}`, { cause });
    this.name = 'FileWriteError';
  }
}
