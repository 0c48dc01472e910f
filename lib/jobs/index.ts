export { JobQueue } from './queue.js';
export { JOB_DEFAULTS } from './execute.js';
export { JobRunner, type RunnerOptions } from './runner.js';
export type { EnqueueOptions, HeldJob, JobContext, JobDefinition, JobDefinitions, JobKind, JobPayloads, Jobs, JobTx } from './types.js';
