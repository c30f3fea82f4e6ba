/**
 * The checks the server makes on an upload, made before sending so that a wrong file is refused
 * at once: its size, and its type. The browser's type comes from the file name; the server
 * reads the bytes, and its answer is the one that counts.
 */
export type UploadProblem = { key: string; values?: Record<string, string | number> };

export function checkUpload(
  file: File,
  limits: { maxBytes: number; types: readonly string[] },
): UploadProblem | undefined {
  if (file.size === 0) return { key: 'settingsFiles.errors.empty' };
  if (file.size > limits.maxBytes) {
    return { key: 'settingsFiles.errors.tooLarge', values: { size: formatBytes(limits.maxBytes) } };
  }
  if (!limits.types.includes(file.type)) return { key: 'settingsFiles.errors.wrongType' };
  return undefined;
}

/** 512 KB, 10 MB: sizes as people read them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}
