import type { CommandIo, Progress } from './command.js';

/** Where the command line writes: the process's streams, or a test's buffers. */
export interface Output {
  write(text: string): unknown;
  /** a terminal: the progress bar is redrawn in place */
  isTTY?: boolean;
}

const BAR_WIDTH = 30;
/** How often a terminal's bar is redrawn at most: thousands of ticks a second would flood it. */
const REDRAW_MS = 100;
/** How often a plain line is written when standard error is a file or a pipe (a log keeps a few lines, not thousands). */
const LINE_MS = 5_000;

const silent: Progress = { tick: () => undefined, done: () => undefined };

/** A bar redrawn with `\r` on a terminal; elsewhere a line every few seconds and one at the end. */
export function progressOn(stderr: Output, label: string, total: number, now: () => number = Date.now): Progress {
  let count = 0;
  let shownAt = 0;
  let finished = false;
  let wrote = false;
  const share = () => (total > 0 ? Math.min(count / total, 1) : 1);
  const percent = () => `${Math.floor(share() * 100)}%`;
  const draw = () => {
    const filled = Math.round(share() * BAR_WIDTH);
    stderr.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${count}/${total} ${percent()}`);
  };
  const line = () => stderr.write(`${label}: ${count}/${total} (${percent()})\n`);
  return {
    tick(step = 1) {
      if (finished) return;
      count += step;
      const at = now();
      if (stderr.isTTY) {
        if (at - shownAt >= REDRAW_MS) {
          shownAt = at;
          draw();
        }
      } else if (shownAt === 0) {
        // The first line starts the interval: a short run writes only its final line.
        shownAt = at;
      } else if (at - shownAt >= LINE_MS) {
        shownAt = at;
        wrote = true;
        line();
      }
    },
    done() {
      if (finished) return;
      finished = true;
      if (stderr.isTTY) {
        draw();
        stderr.write('\n');
      } else if (wrote) {
        // A run short enough to write no line on the way writes none at the end either: the command's own lines say what was done.
        line();
      }
    },
  };
}

/** The io of one command run: human lines on standard output, progress on standard error, both silent with --json. */
export function commandIo(json: boolean, stdout: Output, stderr: Output): CommandIo {
  return {
    json,
    out: (text) => {
      if (!json) stdout.write(`${text}\n`);
    },
    progress: (label, total) => (json ? silent : progressOn(stderr, label, total)),
  };
}

/** Rows as aligned columns under a header; an empty cell is `-`. */
export function table(headers: readonly string[], rows: readonly (readonly (string | number | null | undefined)[])[]): string[] {
  const cells = rows.map((row) => row.map((cell) => (cell === null || cell === undefined || cell === '' ? '-' : String(cell))));
  const widths = headers.map((header, column) => Math.max(header.length, ...cells.map((row) => row[column]?.length ?? 0)));
  const render = (row: readonly string[]) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [render(headers), ...cells.map(render)];
}

/** An instant as operators read it: ISO, to the second. */
export const when = (date: Date | null | undefined): string => (date ? `${date.toISOString().slice(0, 19)}Z` : '-');
