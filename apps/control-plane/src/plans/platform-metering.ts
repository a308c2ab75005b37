import { Injectable, Logger } from '@nestjs/common';
import { type PlatformMeter, QuotaExhaustedError, type UsageMeter } from '@platform/domain';
import { QuotaCounting } from './quota-counting';

const NOTHING_TO_GIVE_BACK = async () => undefined;

/**
 * The platform's own meters (tokens issued, jobs submitted, secrets stored, API calls) against
 * the tenant's quotas (docs/plans.md, "The platform meters itself"). A hard quota used up refuses with a
 * QuotaExhaustedError (429, Retry-After); a counting failure (Redis down) lets the work through
 * and says so in the log: metering never stops token issuance.
 */
@Injectable()
export class PlatformMetering implements UsageMeter {
  private readonly logger = new Logger('PlatformMetering');

  constructor(private readonly counting: QuotaCounting) {}

  async take(tenant: string, meter: PlatformMeter, units = 1): Promise<() => Promise<void>> {
    let counted;
    try {
      counted = await this.counting.consume({ tenant, meter, units });
    } catch (error) {
      this.logger.warn(`quota ${meter} of tenant ${tenant} not counted: ${(error as Error).message}`);
      return NOTHING_TO_GIVE_BACK;
    }
    if (counted === null) return NOTHING_TO_GIVE_BACK;
    if (!counted.granted) {
      const until = counted.window.end;
      throw new QuotaExhaustedError(
        `the ${meter} quota of tenant ${tenant} (${counted.limit} per ${counted.quota.period}) is used up until ${until.toISOString()}`,
        Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000)),
      );
    }
    return async () => {
      await this.counting.consume({ tenant, meter, units: -units }).catch((error: Error) => {
        this.logger.warn(
          `quota ${meter} of tenant ${tenant}: ${units} unit(s) not given back: ${error.message}`,
        );
      });
    };
  }
}
