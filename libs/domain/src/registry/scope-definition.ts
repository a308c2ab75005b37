import type { InsertResult } from '../storage';

export interface ScopeDefinition {
  name: string;
  description: string;
  createdAt: Date;
}

export interface ScopeStore {
  insertScope(scope: ScopeDefinition): Promise<InsertResult>;
  listScopes(): Promise<ScopeDefinition[]>;
}
