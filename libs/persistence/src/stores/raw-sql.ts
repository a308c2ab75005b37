import type { EntityManager } from 'typeorm';

/**
 * The n-th (1-based) bound parameter in the driver's own syntax: `?` on SQLite, `$n` on Postgres.
 * SQLite binds `?` in the order they appear, so number them in the order of the statement's text.
 */
export type Placeholder = (n: number) => string;

export function placeholderFor(manager: EntityManager): Placeholder {
  return manager.connection.options.type === 'postgres' ? (n) => `$${n}` : () => '?';
}

/**
 * `(?, ?), (?, ?)` for `rows` rows of `columns` values each, numbered across the whole
 * statement as Postgres wants.
 */
export function valuesList(placeholder: Placeholder, rows: number, columns: number): string {
  const tuples: string[] = [];
  for (let row = 0; row < rows; row++) {
    const values: string[] = [];
    for (let column = 1; column <= columns; column++) values.push(placeholder(row * columns + column));
    tuples.push(`(${values.join(', ')})`);
  }
  return tuples.join(', ');
}
