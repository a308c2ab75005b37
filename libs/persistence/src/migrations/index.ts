import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { Sessions1764000000000 } from './1764000000000-sessions';

/** In order. Append new migrations; never edit one that has shipped. */
export const MIGRATIONS = [InitialSchema1763800000000, Sessions1764000000000];
