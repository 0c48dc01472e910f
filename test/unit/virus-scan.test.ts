import { describe, expect, it } from 'vitest';
import { openVirusScanner, parseClamdUrl, parseScanReply, VirusScanError } from '../../lib/virus-scan/index.js';

describe('parseScanReply', () => {
  it('reads a clean answer, with or without the NUL that z-commands end with', () => {
    expect(parseScanReply('stream: OK\0')).toEqual({ infected: false });
    expect(parseScanReply('stream: OK\n')).toEqual({ infected: false });
    expect(parseScanReply('stream: OK')).toEqual({ infected: false });
  });

  it('reads the signature of an infected answer', () => {
    expect(parseScanReply('stream: Win.Test.EICAR_HDB-1 FOUND\0')).toEqual({ infected: true, signature: 'Win.Test.EICAR_HDB-1' });
    expect(parseScanReply('stream: Platform.Test.EICAR.UNOFFICIAL FOUND\n')).toEqual({
      infected: true,
      signature: 'Platform.Test.EICAR.UNOFFICIAL',
    });
    expect(parseScanReply('stream: Heuristics.Limits.Exceeded.MaxFileSize FOUND\0')).toEqual({
      infected: true,
      signature: 'Heuristics.Limits.Exceeded.MaxFileSize',
    });
  });

  it('throws VirusScanError for clamd errors: the scan did not decide', () => {
    expect(() => parseScanReply('INSTREAM size limit exceeded. ERROR\0')).toThrow(VirusScanError);
    expect(() => parseScanReply('INSTREAM size limit exceeded. ERROR\0')).toThrow(/size limit exceeded/);
    expect(() => parseScanReply("stream: Can't allocate memory ERROR\0")).toThrow(VirusScanError);
    expect(() => parseScanReply('UNKNOWN COMMAND\0')).toThrow(VirusScanError);
  });

  it('throws VirusScanError for anything else, never guessing clean', () => {
    for (const reply of ['', '\0', 'stream:', 'stream: FOUND', 'stream:  FOUND', 'OK', 'PONG', 'stream: OK extra', 'x'.repeat(10_000)]) {
      expect(() => parseScanReply(reply), JSON.stringify(reply.slice(0, 20))).toThrow(VirusScanError);
    }
    // A long reply is shortened in the message.
    expect(() => parseScanReply('x'.repeat(10_000))).toThrow(/^unexpected clamd reply "x{200}…"$/);
  });
});

describe('parseClamdUrl', () => {
  it('reads tcp://host:port, defaulting to clamd port 3310, and IPv6 literals', () => {
    expect(parseClamdUrl('tcp://127.0.0.1:3310')).toEqual({ host: '127.0.0.1', port: 3310 });
    expect(parseClamdUrl('tcp://clamav.internal:13310/')).toEqual({ host: 'clamav.internal', port: 13310 });
    expect(parseClamdUrl('tcp://clamav')).toEqual({ host: 'clamav', port: 3310 });
    expect(parseClamdUrl('tcp://[::1]:3310')).toEqual({ host: '::1', port: 3310 });
  });

  it('reads unix:///path', () => {
    expect(parseClamdUrl('unix:///run/clamav/clamd.ctl')).toEqual({ path: '/run/clamav/clamd.ctl' });
    expect(parseClamdUrl('unix:///tmp/a%20b/clamd.ctl')).toEqual({ path: '/tmp/a b/clamd.ctl' });
  });

  it('refuses what it cannot use, without repeating the URL', () => {
    for (const url of [
      'clamd',
      'http://127.0.0.1:3310',
      'tcp://127.0.0.1:0',
      'tcp://127.0.0.1:70000',
      'tcp://127.0.0.1:3310/scan',
      'tcp://127.0.0.1:3310?x=1',
      'tcp://user:hunter2@127.0.0.1:3310',
      'unix://host/run/clamd.ctl',
      'unix:///',
    ]) {
      let error: unknown;
      try {
        parseClamdUrl(url);
      } catch (caught) {
        error = caught;
      }
      expect(error, url).toBeInstanceOf(VirusScanError);
      expect((error as Error).message).not.toContain('hunter2');
      expect((error as Error).message).toMatch(/^CLAMD_URL must be tcp:\/\/host:port or unix:\/\/\/path/);
    }
  });
});

describe('openVirusScanner', () => {
  it('without a URL: kind none, every file clean, health NOT_CONFIGURED', async () => {
    const scanner = openVirusScanner({});
    expect(scanner.kind).toBe('none');
    expect(await scanner.scanFile('/does/not/matter')).toEqual({ infected: false });
    expect(await scanner.health()).toEqual({ status: 'NOT_CONFIGURED', detail: 'not configured' });
    expect(openVirusScanner({ url: '' }).kind).toBe('none');
  });

  it('with a URL: kind clamd; a bad URL or timeout throws at once', () => {
    expect(openVirusScanner({ url: 'tcp://127.0.0.1:3310' }).kind).toBe('clamd');
    expect(() => openVirusScanner({ url: 'ftp://x' })).toThrow(VirusScanError);
    expect(() => openVirusScanner({ url: 'tcp://127.0.0.1:3310', timeoutMs: 0 })).toThrow(VirusScanError);
  });
});
