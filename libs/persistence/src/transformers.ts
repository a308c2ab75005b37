import type { ValueTransformer } from 'typeorm';

/**
 * Column transformers that keep the schema identical on SQLite and Postgres: times are
 * bigint epoch milliseconds, arrays are JSON text. pg returns bigint as a string, hence Number().
 */
export const epochMillis: ValueTransformer = {
  to: (value: Date | null | undefined) => (value == null ? value : value.getTime()),
  from: (value: string | number | null) => (value == null ? null : new Date(Number(value))),
};

/** Auto-increment ids and other bigints: integer on SQLite, bigint on Postgres (returned as a string). */
export const numericId: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value == null ? null : Number(value)),
};

export const jsonStringArray: ValueTransformer = {
  to: (value: string[] | undefined) => (value === undefined ? value : JSON.stringify(value)),
  from: (value: string) => JSON.parse(value) as string[],
};

export const jsonObject: ValueTransformer = {
  to: (value: Record<string, unknown> | null | undefined) => (value == null ? value : JSON.stringify(value)),
  from: (value: string | null) => (value == null ? null : (JSON.parse(value) as Record<string, unknown>)),
};
