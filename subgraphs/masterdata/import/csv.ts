/** Rows of a CSV file with a header line (RFC 4180 quoting); each row keeps its line number for reports. */
export function parseCsv(text: string): { line: number; row: Record<string, string> }[] {
  const records: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else {
        if (char === '\n') line++;
        cell += char;
      }
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      cells.push(cell);
      if (cells.some((value) => value !== '')) records.push({ line: start, cells });
      cells = [];
      cell = '';
      line++;
      start = line;
    } else cell += char;
  }
  cells.push(cell);
  if (cells.some((value) => value !== '')) records.push({ line: start, cells });
  const [header, ...rows] = records;
  if (!header) return [];
  const names = header.cells.map((name) => name.trim());
  return rows.map(({ line: at, cells: values }) => ({ line: at, row: Object.fromEntries(names.map((name, index) => [name, values[index] ?? ''])) }));
}
