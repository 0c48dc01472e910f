import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { mountHealth, type Health } from './health.js';
import type { HttpObservers } from './metrics.js';

export interface ProbeServer {
  port: number;
  close(): Promise<void>;
}

/**
 * A worker's own small HTTP face (WORKER_PORT): the probes an orchestrator
 * reads and `/metrics` with the stage durations of the packets this worker
 * runs, which no other process sees. Nothing else is served.
 */
export async function startProbeServer(health: Health, metrics: HttpObservers, port: number, host: string): Promise<ProbeServer> {
  const app = express();
  app.disable('x-powered-by');
  if (metrics.scrape) app.get('/metrics', metrics.scrape);
  mountHealth(app, health);
  app.use((_req, res) => void res.status(404).json({ status: 404, error: 'not found: a worker serves /health/live, /health/ready, /health and /metrics' }));
  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(port, host, () => resolve(listening));
    listening.once('error', reject);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
