/**
 * A Java properties file as an operator writes it: `key=value` or
 * `key: value` lines, `#` and `!` comments, a trailing backslash continuing
 * a line. Escapes other than the continuation are kept as written (the
 * values are patterns and lists, where a backslash is the pattern's).
 */
export function parseProperties(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    let line = lines[index]!.trimStart();
    if (!line || line.startsWith('#') || line.startsWith('!')) continue;
    while (/(^|[^\\])(\\\\)*\\$/.test(line) && index + 1 < lines.length) line = line.slice(0, -1) + lines[++index]!.trimStart();
    const match = /^((?:[^=:\\\s]|\\.)+)\s*[=:]?\s*(.*)$/.exec(line);
    if (match) entries.set(match[1]!, match[2]!.trimEnd());
  }
  return entries;
}
