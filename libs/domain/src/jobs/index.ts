export * from './job';
export * from './job-queue';
