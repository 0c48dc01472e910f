import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * An embedded database's data folder belongs to one process: two PGlite
 * instances on one folder corrupt it, and PGlite keeps no lock of its own
 * (its postmaster.pid names pid -42, whatever the process). Whoever opens a
 * folder (`npm start`, `db:migrate`, the admin command line) claims it with
 * a file beside it naming the process; a file left by a process that died
 * is taken over.
 */
export class DataFolderInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`the embedded database ${dataDir} is in use by process ${pid} on this machine: stop it first (or set DATABASE_URL)`);
    this.name = 'DataFolderInUse';
  }
}

interface Holder {
  pid: number;
  host: string;
  /** the process's start time (Linux clock ticks), so a pid reused by another process is not taken for the holder */
  started: string | null;
}

/** The claims this process holds, by folder: one process may open its own folder more than once (tests reopening). */
const claims = new Map<string, number>();

export const lockFileOf = (dataDir: string) => `${dataDir.replace(/\/+$/, '')}.pid`;

function startTimeOf(pid: number): string | null {
  try {
    // The field after the command name (which may hold spaces) is the 3rd; the start time is the 22nd.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function readHolder(file: string): Holder | null {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
    return typeof holder.pid === 'number' ? { pid: holder.pid, host: String(holder.host ?? ''), started: holder.started ?? null } : null;
  } catch {
    return null;
  }
}

function alive(holder: Holder): boolean {
  // Another machine's process (a shared folder) cannot be checked: it is taken as alive.
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const started = startTimeOf(holder.pid);
  return !holder.started || !started || started === holder.started;
}

/** The live process (not this one) holding the folder, if any. */
export function dataFolderHolder(dataDir: string): number | undefined {
  if (claims.has(dataDir)) return undefined;
  const holder = readHolder(lockFileOf(dataDir));
  return holder && alive(holder) ? holder.pid : undefined;
}

/** Claims the folder for this process (DataFolderInUse when a live process holds it); the release undoes the claim. */
export function claimDataFolder(dataDir: string): () => void {
  const file = lockFileOf(dataDir);
  const held = claims.get(dataDir) ?? 0;
  if (!held) writeClaim(dataDir, file);
  claims.set(dataDir, held + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (claims.get(dataDir) ?? 1) - 1;
    if (left > 0) return void claims.set(dataDir, left);
    claims.delete(dataDir);
    if (readHolder(file)?.pid === process.pid) unlinkQuietly(file);
  };
}

/** Creates the file only if absent (two processes starting at once: one wins); a dead holder's file is replaced. */
function writeClaim(dataDir: string, file: string): void {
  const content = JSON.stringify({ pid: process.pid, host: hostname(), started: startTimeOf(process.pid) }) + '\n';
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return writeFileSync(file, content, { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(file);
    if (holder && alive(holder)) throw new DataFolderInUse(dataDir, holder.pid);
    unlinkQuietly(file);
  }
  throw new DataFolderInUse(dataDir, readHolder(file)?.pid ?? 0);
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone: nothing to release
  }
}

// A process that exits without closing its database (a crash, process.exit) leaves no claim behind.
process.once('exit', () => {
  for (const dataDir of claims.keys()) if (readHolder(lockFileOf(dataDir))?.pid === process.pid) unlinkQuietly(lockFileOf(dataDir));
});
