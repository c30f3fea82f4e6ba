/** RFC 4180 CSV, shared by the server's files and the files the web app builds from pages. */

export const CSV_LINE_END = '\r\n';

/** One RFC 4180 field: quoted, with quotes doubled, when it holds a comma, a quote or a line break. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A cell of text someone typed (an account's name), safe to open in a spreadsheet: one that
 * starts with `=`, `+`, `-` or `@` (or a tab or carriage return, which some programs skip before
 * reading on) would run as a formula, so it gets a leading `'`, which shows it as text. Only
 * text goes through here, once per account and not per row, so amounts such as `-1.50` stay
 * numbers and the rows cost nothing more.
 */
export function csvTextField(text: string): string {
  return csvField(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
}

export function csvLine(fields: readonly string[]): string {
  return fields.map(csvField).join(',') + CSV_LINE_END;
}
