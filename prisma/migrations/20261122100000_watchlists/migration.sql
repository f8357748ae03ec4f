-- CreateEnum
CREATE TYPE "WatchlistLoadStatus" AS ENUM ('LOADED', 'UNCHANGED', 'FAILED');

-- CreateTable
CREATE TABLE "watchlist_loads" (
    "id" UUID NOT NULL,
    "source_id" TEXT NOT NULL,
    "status" "WatchlistLoadStatus" NOT NULL,
    "content_hash" CHAR(64),
    "published_at" TIMESTAMPTZ(3),
    "entity_count" INTEGER,
    "error" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "watchlist_loads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "watchlist_entities" (
    "id" UUID NOT NULL,
    "load_id" UUID NOT NULL,
    "source_id" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "names" JSONB NOT NULL,
    "birth_dates" TEXT[],
    "birth_places" TEXT[],
    "nationalities" TEXT[],
    "countries" TEXT[],
    "addresses" TEXT[],
    "identifiers" JSONB NOT NULL,
    "programs" TEXT[],
    "topics" TEXT[],
    "listed_on" TEXT,
    "remarks" TEXT,

    CONSTRAINT "watchlist_entities_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "watchlist_loads_source_id_status_finished_at_idx" ON "watchlist_loads"("source_id", "status", "finished_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "watchlist_entities_load_id_external_id_key" ON "watchlist_entities"("load_id", "external_id");

-- CreateIndex
CREATE INDEX "watchlist_entities_source_id_external_id_idx" ON "watchlist_entities"("source_id", "external_id");

-- AddForeignKey
ALTER TABLE "watchlist_entities" ADD CONSTRAINT "watchlist_entities_load_id_fkey" FOREIGN KEY ("load_id") REFERENCES "watchlist_loads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Public lists, the same for every organization: tenants may read them, only the service writes.
GRANT SELECT ON "watchlist_loads", "watchlist_entities" TO compliance_tenant;
