import { POLICY_EFFECTS, POLICY_TENANTS, type Policy } from './policy';

/** A policy as it arrives from outside (a DryRun candidate): every field still unchecked. */
export interface PolicyInput {
  id?: string;
  description?: string;
  effect?: string;
  roles?: string[];
  actions?: string[];
  tenants?: string;
}

/** `jobs.read`, `jobs.*`, `admin.apps.write` or `*`. */
const ACTION_PATTERN = /^(?:\*|[a-z][a-z0-9_-]*(?:\.[a-z][a-z0-9_-]*)*\.(?:[a-z][a-z0-9_-]*|\*))$/;
const POLICY_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A scope-shaped action to decide (`jobs.read`); wildcards are patterns, not actions. */
export function isAction(value: string): boolean {
  return value !== '*' && !value.endsWith('.*') && ACTION_PATTERN.test(value);
}

/** The policy, checked; or what is wrong with it (effect, tenants, id, roles, actions). */
export function parsePolicy(input: PolicyInput): Policy | { problem: string } {
  const { id = '', description = '', effect = '', roles = [], actions = [], tenants = '' } = input;
  if (!POLICY_ID.test(id)) return { problem: 'a policy needs an id of 1-128 characters [A-Za-z0-9._:-]' };
  if (!(POLICY_EFFECTS as readonly string[]).includes(effect)) {
    return { problem: `policy ${id}: effect must be allow or deny` };
  }
  if (!(POLICY_TENANTS as readonly string[]).includes(tenants)) {
    return { problem: `policy ${id}: tenants must be own, other or any` };
  }
  if (roles.length === 0 || roles.some((role) => role === '')) {
    return { problem: `policy ${id}: roles must name at least one role (or *)` };
  }
  if (actions.length === 0 || actions.some((action) => !ACTION_PATTERN.test(action))) {
    return { problem: `policy ${id}: actions must be scope patterns (jobs.read, jobs.*, *)` };
  }
  return {
    id,
    description: description || id,
    effect: effect as Policy['effect'],
    roles: [...roles],
    actions: [...actions],
    tenants: tenants as Policy['tenants'],
  };
}
