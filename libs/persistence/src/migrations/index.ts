import { InitialSchema1763800000000 } from './1763800000000-initial-schema';

/** In order. Append new migrations; never edit one that has shipped. */
export const MIGRATIONS = [InitialSchema1763800000000];
