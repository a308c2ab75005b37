// Original file: proto/platform/jobs/v1/jobs.proto

export const JobState = {
  JOB_STATE_UNSPECIFIED: 'JOB_STATE_UNSPECIFIED',
  QUEUED: 'QUEUED',
  RUNNING: 'RUNNING',
  SUCCEEDED: 'SUCCEEDED',
  FAILED: 'FAILED',
  CANCELLING: 'CANCELLING',
  CANCELLED: 'CANCELLED',
  TIMED_OUT: 'TIMED_OUT',
} as const;

export type JobState =
  | 'JOB_STATE_UNSPECIFIED'
  | 0
  | 'QUEUED'
  | 1
  | 'RUNNING'
  | 2
  | 'SUCCEEDED'
  | 3
  | 'FAILED'
  | 4
  | 'CANCELLING'
  | 5
  | 'CANCELLED'
  | 6
  | 'TIMED_OUT'
  | 7

export type JobState__Output = typeof JobState[keyof typeof JobState]
