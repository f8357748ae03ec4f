-- Rate limits per API key and per organization, counted in PostgreSQL so that
-- every app instance sees the same numbers.

-- CreateTable
CREATE TABLE "rate_limit_windows" (
    "bucket" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "rate_limit_windows_pkey" PRIMARY KEY ("bucket","window_start")
);

-- CreateIndex
CREATE INDEX "rate_limit_windows_window_start_idx" ON "rate_limit_windows"("window_start");
