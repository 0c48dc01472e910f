// The message queue as components reach it (deps.queue): through a platform started with
// STOMP_URL, a publish resolves on the broker's receipt, a subscriber acknowledges each message
// itself (one left unacknowledged comes back to the next subscriber), and without STOMP_URL the
// queue is DISABLED and refuses to publish.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueMessage } from '../../lib/queue/index.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { waitFor } from '../support/wait.js';

const STOMP_URL = process.env.STOMP_URL || 'stomp://127.0.0.1:61613';

describe('deps.queue with ActiveMQ', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({ STOMP_URL }, undefined, { database: 'postgres' });
    await waitFor(() => t.platform.deps.queue.state === 'UP', 'the queue UP', 30_000);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('publishes persistently and delivers with client-individual acknowledgement: an unacknowledged message comes back', async () => {
    const { queue } = t.platform.deps;
    const destination = `/queue/deps-test-${randomUUID()}`;
    for (const body of ['one', 'two', 'three']) await queue.publish(destination, body, { 'request-id': body });

    const first: QueueMessage[] = [];
    const stopFirst = queue.subscribe(destination, (message) => {
      first.push(message);
      // 'two' is left unacknowledged, as a consumer that crashed before its commit would.
      if (message.body.toString() !== 'two') message.ack();
    });
    await waitFor(() => first.length === 3, 'three deliveries');
    expect(first.map((message) => [message.body.toString(), message.headers['request-id'], message.headers.persistent])).toEqual([
      ['one', 'one', 'true'],
      ['two', 'two', 'true'],
      ['three', 'three', 'true'],
    ]);
    stopFirst();

    const second: string[] = [];
    const stopSecond = queue.subscribe(destination, (message) => {
      second.push(message.body.toString());
      message.ack();
    });
    await waitFor(() => second.length === 1, 'the unacknowledged message again');
    expect(second).toEqual(['two']);
    stopSecond();
  });
});

describe('deps.queue without STOMP_URL', () => {
  it('is DISABLED, refuses to publish with a clear reason, and /health says so', async () => {
    const t = await startTestPlatform({ STOMP_URL: '' });
    try {
      expect(t.platform.deps.queue.state).toBe('DISABLED');
      await expect(t.platform.deps.queue.publish('/queue/nowhere', 'x')).rejects.toThrow(/disabled \(STOMP_URL unset\)/);
      expect((await t.request('GET', '/health')).json.components.queue).toEqual({ status: 'DISABLED', details: { required: false } });
    } finally {
      await t.close();
    }
  });
});
