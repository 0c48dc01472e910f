// Run before every test file (vitest's setupFiles), also when files share a worker and its modules.
import { beforeEach } from 'vitest';
import { liveClocks } from './platform.js';

// Each test starts with the clocks of the platforms alive at the real time, whatever the last test did to them.
beforeEach(() => {
  for (const clock of liveClocks) clock.set(new Date());
});
