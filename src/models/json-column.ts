import { DataType } from 'sequelize-typescript';
import type { ModelAttributeColumnOptions } from 'sequelize';

/**
 * JSON kept in a TEXT column: MariaDB's JSON type is LONGTEXT underneath and mysql2 hands it back as a
 * string, so the (de)serialisation is done here once, for MySQL 8 and MariaDB alike.
 */
export function jsonColumn<T>(field: string, fallback: T, allowNull = false): Partial<ModelAttributeColumnOptions> {
  return {
    type: DataType.TEXT,
    allowNull,
    get(this: { getDataValue(k: string): unknown }): T {
      const raw = this.getDataValue(field);
      if (raw === null || raw === undefined) return fallback;
      return (typeof raw === 'string' ? JSON.parse(raw) : raw) as T;
    },
    set(this: { setDataValue(k: string, v: unknown): void }, value: T | null) {
      this.setDataValue(field, value === null || value === undefined ? null : JSON.stringify(value));
    },
  };
}
