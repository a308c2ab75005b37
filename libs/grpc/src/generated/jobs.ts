import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { GetJobLogsRequest as _platform_jobs_v1_GetJobLogsRequest, GetJobLogsRequest__Output as _platform_jobs_v1_GetJobLogsRequest__Output } from './platform/jobs/v1/GetJobLogsRequest';
import type { GetJobRequest as _platform_jobs_v1_GetJobRequest, GetJobRequest__Output as _platform_jobs_v1_GetJobRequest__Output } from './platform/jobs/v1/GetJobRequest';
import type { Job as _platform_jobs_v1_Job, Job__Output as _platform_jobs_v1_Job__Output } from './platform/jobs/v1/Job';
import type { JobError as _platform_jobs_v1_JobError, JobError__Output as _platform_jobs_v1_JobError__Output } from './platform/jobs/v1/JobError';
import type { JobLogLine as _platform_jobs_v1_JobLogLine, JobLogLine__Output as _platform_jobs_v1_JobLogLine__Output } from './platform/jobs/v1/JobLogLine';
import type { JobLogPage as _platform_jobs_v1_JobLogPage, JobLogPage__Output as _platform_jobs_v1_JobLogPage__Output } from './platform/jobs/v1/JobLogPage';
import type { JobServiceClient as _platform_jobs_v1_JobServiceClient, JobServiceDefinition as _platform_jobs_v1_JobServiceDefinition } from './platform/jobs/v1/JobService';
import type { JobTransition as _platform_jobs_v1_JobTransition, JobTransition__Output as _platform_jobs_v1_JobTransition__Output } from './platform/jobs/v1/JobTransition';
import type { ListJobsRequest as _platform_jobs_v1_ListJobsRequest, ListJobsRequest__Output as _platform_jobs_v1_ListJobsRequest__Output } from './platform/jobs/v1/ListJobsRequest';
import type { ListJobsResponse as _platform_jobs_v1_ListJobsResponse, ListJobsResponse__Output as _platform_jobs_v1_ListJobsResponse__Output } from './platform/jobs/v1/ListJobsResponse';
import type { SubmitJobRequest as _platform_jobs_v1_SubmitJobRequest, SubmitJobRequest__Output as _platform_jobs_v1_SubmitJobRequest__Output } from './platform/jobs/v1/SubmitJobRequest';
import type { SubmitJobResponse as _platform_jobs_v1_SubmitJobResponse, SubmitJobResponse__Output as _platform_jobs_v1_SubmitJobResponse__Output } from './platform/jobs/v1/SubmitJobResponse';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  platform: {
    jobs: {
      v1: {
        GetJobLogsRequest: MessageTypeDefinition<_platform_jobs_v1_GetJobLogsRequest, _platform_jobs_v1_GetJobLogsRequest__Output>
        GetJobRequest: MessageTypeDefinition<_platform_jobs_v1_GetJobRequest, _platform_jobs_v1_GetJobRequest__Output>
        Job: MessageTypeDefinition<_platform_jobs_v1_Job, _platform_jobs_v1_Job__Output>
        JobError: MessageTypeDefinition<_platform_jobs_v1_JobError, _platform_jobs_v1_JobError__Output>
        JobLogLine: MessageTypeDefinition<_platform_jobs_v1_JobLogLine, _platform_jobs_v1_JobLogLine__Output>
        JobLogPage: MessageTypeDefinition<_platform_jobs_v1_JobLogPage, _platform_jobs_v1_JobLogPage__Output>
        JobService: SubtypeConstructor<typeof grpc.Client, _platform_jobs_v1_JobServiceClient> & { service: _platform_jobs_v1_JobServiceDefinition }
        JobState: EnumTypeDefinition
        JobTransition: MessageTypeDefinition<_platform_jobs_v1_JobTransition, _platform_jobs_v1_JobTransition__Output>
        ListJobsRequest: MessageTypeDefinition<_platform_jobs_v1_ListJobsRequest, _platform_jobs_v1_ListJobsRequest__Output>
        ListJobsResponse: MessageTypeDefinition<_platform_jobs_v1_ListJobsResponse, _platform_jobs_v1_ListJobsResponse__Output>
        SubmitJobRequest: MessageTypeDefinition<_platform_jobs_v1_SubmitJobRequest, _platform_jobs_v1_SubmitJobRequest__Output>
        SubmitJobResponse: MessageTypeDefinition<_platform_jobs_v1_SubmitJobResponse, _platform_jobs_v1_SubmitJobResponse__Output>
      }
    }
  }
}

