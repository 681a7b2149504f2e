import type { Knex as KnexInstance } from 'knex';
import type { InjectionToken } from 'tsyringe';

/** The app's query builder, bound to its own pool. */
export type Knex = KnexInstance;
export const Knex: InjectionToken<Knex> = Symbol('Knex');
