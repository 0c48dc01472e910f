// One autocannon run in a process of its own (test/bench/load.ts), so that the load generator never
// shares a core's event loop with the process that measures or the platform it measures.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadCase, LoadResult } from './load.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function load(spec: LoadCase): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/bench/load.ts'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    child.stdin.end(JSON.stringify(spec));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(output.trim().split('\n').at(-1)!) as LoadResult) : reject(new Error(`load generator exited ${code}`)),
    );
  });
}
