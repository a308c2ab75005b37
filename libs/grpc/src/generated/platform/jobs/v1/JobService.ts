// Original file: proto/platform/jobs/v1/jobs.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { GetJobLogsRequest as _platform_jobs_v1_GetJobLogsRequest, GetJobLogsRequest__Output as _platform_jobs_v1_GetJobLogsRequest__Output } from '../../../platform/jobs/v1/GetJobLogsRequest';
import type { GetJobRequest as _platform_jobs_v1_GetJobRequest, GetJobRequest__Output as _platform_jobs_v1_GetJobRequest__Output } from '../../../platform/jobs/v1/GetJobRequest';
import type { Job as _platform_jobs_v1_Job, Job__Output as _platform_jobs_v1_Job__Output } from '../../../platform/jobs/v1/Job';
import type { JobLogPage as _platform_jobs_v1_JobLogPage, JobLogPage__Output as _platform_jobs_v1_JobLogPage__Output } from '../../../platform/jobs/v1/JobLogPage';
import type { JobTransition as _platform_jobs_v1_JobTransition, JobTransition__Output as _platform_jobs_v1_JobTransition__Output } from '../../../platform/jobs/v1/JobTransition';
import type { ListJobsRequest as _platform_jobs_v1_ListJobsRequest, ListJobsRequest__Output as _platform_jobs_v1_ListJobsRequest__Output } from '../../../platform/jobs/v1/ListJobsRequest';
import type { ListJobsResponse as _platform_jobs_v1_ListJobsResponse, ListJobsResponse__Output as _platform_jobs_v1_ListJobsResponse__Output } from '../../../platform/jobs/v1/ListJobsResponse';
import type { SubmitJobRequest as _platform_jobs_v1_SubmitJobRequest, SubmitJobRequest__Output as _platform_jobs_v1_SubmitJobRequest__Output } from '../../../platform/jobs/v1/SubmitJobRequest';
import type { SubmitJobResponse as _platform_jobs_v1_SubmitJobResponse, SubmitJobResponse__Output as _platform_jobs_v1_SubmitJobResponse__Output } from '../../../platform/jobs/v1/SubmitJobResponse';

export interface JobServiceClient extends grpc.Client {
  /**
   * A queued job is CANCELLED at once; a running one becomes CANCELLING and its worker stops at
   * its next heartbeat. A job already ended: FAILED_PRECONDITION.
   */
  CancelJob(argument: _platform_jobs_v1_GetJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  CancelJob(argument: _platform_jobs_v1_GetJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  CancelJob(argument: _platform_jobs_v1_GetJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  CancelJob(argument: _platform_jobs_v1_GetJobRequest, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  /**
   * A queued job is CANCELLED at once; a running one becomes CANCELLING and its worker stops at
   * its next heartbeat. A job already ended: FAILED_PRECONDITION.
   */
  cancelJob(argument: _platform_jobs_v1_GetJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  cancelJob(argument: _platform_jobs_v1_GetJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  cancelJob(argument: _platform_jobs_v1_GetJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  cancelJob(argument: _platform_jobs_v1_GetJobRequest, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  
  GetJob(argument: _platform_jobs_v1_GetJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  GetJob(argument: _platform_jobs_v1_GetJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  GetJob(argument: _platform_jobs_v1_GetJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  GetJob(argument: _platform_jobs_v1_GetJobRequest, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  getJob(argument: _platform_jobs_v1_GetJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  getJob(argument: _platform_jobs_v1_GetJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  getJob(argument: _platform_jobs_v1_GetJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  getJob(argument: _platform_jobs_v1_GetJobRequest, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  
  /**
   * The job's log lines after `after`, in pages; with `follow`, new lines as they are written
   * until the job ends.
   */
  GetJobLogs(argument: _platform_jobs_v1_GetJobLogsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_platform_jobs_v1_JobLogPage__Output>;
  GetJobLogs(argument: _platform_jobs_v1_GetJobLogsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_platform_jobs_v1_JobLogPage__Output>;
  /**
   * The job's log lines after `after`, in pages; with `follow`, new lines as they are written
   * until the job ends.
   */
  getJobLogs(argument: _platform_jobs_v1_GetJobLogsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_platform_jobs_v1_JobLogPage__Output>;
  getJobLogs(argument: _platform_jobs_v1_GetJobLogsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_platform_jobs_v1_JobLogPage__Output>;
  
  /**
   * A job that has ended, with its output or error. Still running: FAILED_PRECONDITION.
   */
  GetJobOutput(argument: _platform_jobs_v1_GetJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  GetJobOutput(argument: _platform_jobs_v1_GetJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  GetJobOutput(argument: _platform_jobs_v1_GetJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  GetJobOutput(argument: _platform_jobs_v1_GetJobRequest, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  /**
   * A job that has ended, with its output or error. Still running: FAILED_PRECONDITION.
   */
  getJobOutput(argument: _platform_jobs_v1_GetJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  getJobOutput(argument: _platform_jobs_v1_GetJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  getJobOutput(argument: _platform_jobs_v1_GetJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  getJobOutput(argument: _platform_jobs_v1_GetJobRequest, callback: grpc.requestCallback<_platform_jobs_v1_Job__Output>): grpc.ClientUnaryCall;
  
  /**
   * A tenant's jobs, oldest first, paged.
   */
  ListJobs(argument: _platform_jobs_v1_ListJobsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  ListJobs(argument: _platform_jobs_v1_ListJobsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_jobs_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  ListJobs(argument: _platform_jobs_v1_ListJobsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  ListJobs(argument: _platform_jobs_v1_ListJobsRequest, callback: grpc.requestCallback<_platform_jobs_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * A tenant's jobs, oldest first, paged.
   */
  listJobs(argument: _platform_jobs_v1_ListJobsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  listJobs(argument: _platform_jobs_v1_ListJobsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_jobs_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  listJobs(argument: _platform_jobs_v1_ListJobsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  listJobs(argument: _platform_jobs_v1_ListJobsRequest, callback: grpc.requestCallback<_platform_jobs_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Queues a job. With an idempotency key the tenant already used for the same work, answers
   * that job (`created` false); for other work: FAILED_PRECONDITION.
   */
  SubmitJob(argument: _platform_jobs_v1_SubmitJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_SubmitJobResponse__Output>): grpc.ClientUnaryCall;
  SubmitJob(argument: _platform_jobs_v1_SubmitJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_jobs_v1_SubmitJobResponse__Output>): grpc.ClientUnaryCall;
  SubmitJob(argument: _platform_jobs_v1_SubmitJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_SubmitJobResponse__Output>): grpc.ClientUnaryCall;
  SubmitJob(argument: _platform_jobs_v1_SubmitJobRequest, callback: grpc.requestCallback<_platform_jobs_v1_SubmitJobResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Queues a job. With an idempotency key the tenant already used for the same work, answers
   * that job (`created` false); for other work: FAILED_PRECONDITION.
   */
  submitJob(argument: _platform_jobs_v1_SubmitJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_SubmitJobResponse__Output>): grpc.ClientUnaryCall;
  submitJob(argument: _platform_jobs_v1_SubmitJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_jobs_v1_SubmitJobResponse__Output>): grpc.ClientUnaryCall;
  submitJob(argument: _platform_jobs_v1_SubmitJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_jobs_v1_SubmitJobResponse__Output>): grpc.ClientUnaryCall;
  submitJob(argument: _platform_jobs_v1_SubmitJobRequest, callback: grpc.requestCallback<_platform_jobs_v1_SubmitJobResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * The job's current state first, then every transition as it happens; the stream ends after
   * the final state (SUCCEEDED, FAILED, CANCELLED, TIMED_OUT).
   */
  WatchJob(argument: _platform_jobs_v1_GetJobRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_platform_jobs_v1_JobTransition__Output>;
  WatchJob(argument: _platform_jobs_v1_GetJobRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_platform_jobs_v1_JobTransition__Output>;
  /**
   * The job's current state first, then every transition as it happens; the stream ends after
   * the final state (SUCCEEDED, FAILED, CANCELLED, TIMED_OUT).
   */
  watchJob(argument: _platform_jobs_v1_GetJobRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_platform_jobs_v1_JobTransition__Output>;
  watchJob(argument: _platform_jobs_v1_GetJobRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_platform_jobs_v1_JobTransition__Output>;
  
}

export interface JobServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * A queued job is CANCELLED at once; a running one becomes CANCELLING and its worker stops at
   * its next heartbeat. A job already ended: FAILED_PRECONDITION.
   */
  CancelJob: grpc.handleUnaryCall<_platform_jobs_v1_GetJobRequest__Output, _platform_jobs_v1_Job>;
  
  GetJob: grpc.handleUnaryCall<_platform_jobs_v1_GetJobRequest__Output, _platform_jobs_v1_Job>;
  
  /**
   * The job's log lines after `after`, in pages; with `follow`, new lines as they are written
   * until the job ends.
   */
  GetJobLogs: grpc.handleServerStreamingCall<_platform_jobs_v1_GetJobLogsRequest__Output, _platform_jobs_v1_JobLogPage>;
  
  /**
   * A job that has ended, with its output or error. Still running: FAILED_PRECONDITION.
   */
  GetJobOutput: grpc.handleUnaryCall<_platform_jobs_v1_GetJobRequest__Output, _platform_jobs_v1_Job>;
  
  /**
   * A tenant's jobs, oldest first, paged.
   */
  ListJobs: grpc.handleUnaryCall<_platform_jobs_v1_ListJobsRequest__Output, _platform_jobs_v1_ListJobsResponse>;
  
  /**
   * Queues a job. With an idempotency key the tenant already used for the same work, answers
   * that job (`created` false); for other work: FAILED_PRECONDITION.
   */
  SubmitJob: grpc.handleUnaryCall<_platform_jobs_v1_SubmitJobRequest__Output, _platform_jobs_v1_SubmitJobResponse>;
  
  /**
   * The job's current state first, then every transition as it happens; the stream ends after
   * the final state (SUCCEEDED, FAILED, CANCELLED, TIMED_OUT).
   */
  WatchJob: grpc.handleServerStreamingCall<_platform_jobs_v1_GetJobRequest__Output, _platform_jobs_v1_JobTransition>;
  
}

export interface JobServiceDefinition extends grpc.ServiceDefinition {
  CancelJob: MethodDefinition<_platform_jobs_v1_GetJobRequest, _platform_jobs_v1_Job, _platform_jobs_v1_GetJobRequest__Output, _platform_jobs_v1_Job__Output>
  GetJob: MethodDefinition<_platform_jobs_v1_GetJobRequest, _platform_jobs_v1_Job, _platform_jobs_v1_GetJobRequest__Output, _platform_jobs_v1_Job__Output>
  GetJobLogs: MethodDefinition<_platform_jobs_v1_GetJobLogsRequest, _platform_jobs_v1_JobLogPage, _platform_jobs_v1_GetJobLogsRequest__Output, _platform_jobs_v1_JobLogPage__Output>
  GetJobOutput: MethodDefinition<_platform_jobs_v1_GetJobRequest, _platform_jobs_v1_Job, _platform_jobs_v1_GetJobRequest__Output, _platform_jobs_v1_Job__Output>
  ListJobs: MethodDefinition<_platform_jobs_v1_ListJobsRequest, _platform_jobs_v1_ListJobsResponse, _platform_jobs_v1_ListJobsRequest__Output, _platform_jobs_v1_ListJobsResponse__Output>
  SubmitJob: MethodDefinition<_platform_jobs_v1_SubmitJobRequest, _platform_jobs_v1_SubmitJobResponse, _platform_jobs_v1_SubmitJobRequest__Output, _platform_jobs_v1_SubmitJobResponse__Output>
  WatchJob: MethodDefinition<_platform_jobs_v1_GetJobRequest, _platform_jobs_v1_JobTransition, _platform_jobs_v1_GetJobRequest__Output, _platform_jobs_v1_JobTransition__Output>
}
