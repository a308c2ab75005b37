import { DenyList } from '@platform/domain';
import { gaugeOf } from '@platform/telemetry';

/** The sidecar's deny-list, with its size and applied seq as gauges (docs/operations.md). */
export function measuredDenyList(): DenyList {
  const denyList = new DenyList();
  gaugeOf(
    'platform_deny_list_entries',
    'Entries of the sidecar’s deny-list (jtis, clients, users and grants).',
    () => denyList.size,
  );
  gaugeOf(
    'platform_deny_list_last_seq',
    'The highest revocation sequence id the sidecar applied.',
    () => denyList.lastSeq,
  );
  return denyList;
}
