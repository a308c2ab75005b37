import { PlatformMetering } from '../plans/platform-metering';
import { Module } from '@nestjs/common';
import {
  AuditTrail,
  type Clock,
  CrossTenantRefusalAuditor,
  JobQueue,
  type Stores,
  type Transactor,
} from '@platform/domain';
import { InternalGuard } from '../platform/internal.guard';
import { CLOCK, STORES, TRANSACTOR } from '../platform/tokens';
import { InternalJobWorkersController } from './internal-job-workers.controller';
import { InternalJobsController } from './internal-jobs.controller';
import { JobSignals } from './job-signals';
import { JobSweepLoop } from './job-sweep-loop';

/** The job queue (docs/jobs.md): submitters' and workers' routes, and the sweep of overdue leases. */
@Module({
  controllers: [InternalJobsController, InternalJobWorkersController],
  providers: [
    InternalGuard,
    JobSignals,
    JobSweepLoop,
    {
      provide: JobQueue,
      useFactory: (
        stores: Stores,
        transactor: Transactor,
        trail: AuditTrail,
        clock: Clock,
        signals: JobSignals,
        refusals: CrossTenantRefusalAuditor,
        meter: PlatformMetering,
      ) =>
        new JobQueue(stores.jobs, transactor, trail, clock, {
          onQueued: () => signals.queued(),
          refusals,
          meter,
        }),
      inject: [
        STORES,
        TRANSACTOR,
        AuditTrail,
        CLOCK,
        JobSignals,
        CrossTenantRefusalAuditor,
        PlatformMetering,
      ],
    },
  ],
})
export class JobsModule {}
