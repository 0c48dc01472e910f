import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PrismaPGlite } from 'pglite-prisma-adapter';

/** The extensions the schema uses (base.prisma), which PostgreSQL ships in contrib and PGlite loads on demand. */
const EXTENSIONS = { pg_trgm };

/** An embedded database able to run the migrations: every PGlite of the platform, its tools and tests is opened here. */
export const openPGlite = (dataDir = 'memory://', options: Omit<PGliteOptions, 'extensions'> = {}): Promise<PGlite> =>
  PGlite.create(dataDir, { ...options, extensions: EXTENSIONS });

/** Prisma's PGlite adapter, whose shadow database (for diffs) loads the same extensions. */
export class PGliteMigrationAdapter extends PrismaPGlite {
  override async connectToShadowDb() {
    return new PrismaPGlite(await openPGlite()).connect();
  }
}
