-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "session_id" TEXT,
    "owner" TEXT NOT NULL DEFAULT '',
    "agent" TEXT NOT NULL,
    "mode" TEXT NOT NULL DEFAULT 'react',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "input" TEXT NOT NULL,
    "reply" TEXT,
    "finish_reason" TEXT,
    "error" TEXT,
    "plan" JSONB,
    "trace" JSONB,
    "used_tools" JSONB,
    "prompt_tokens" INTEGER NOT NULL DEFAULT 0,
    "completion_tokens" INTEGER NOT NULL DEFAULT 0,
    "trace_id" TEXT,
    "total_ms" INTEGER,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    "finished_at" DATETIME,
    "lease_owner" TEXT,
    "lease_until" DATETIME,
    "takeovers" INTEGER NOT NULL DEFAULT 0,
    "turn_options" JSONB,
    CONSTRAINT "Run_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "Session" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Run" ("agent", "completion_tokens", "created_at", "error", "finish_reason", "finished_at", "id", "input", "mode", "owner", "plan", "prompt_tokens", "reply", "session_id", "status", "total_ms", "trace", "trace_id", "updated_at", "used_tools") SELECT "agent", "completion_tokens", "created_at", "error", "finish_reason", "finished_at", "id", "input", "mode", "owner", "plan", "prompt_tokens", "reply", "session_id", "status", "total_ms", "trace", "trace_id", "updated_at", "used_tools" FROM "Run";
DROP TABLE "Run";
ALTER TABLE "new_Run" RENAME TO "Run";
CREATE INDEX "Run_session_id_created_at_idx" ON "Run"("session_id", "created_at");
CREATE INDEX "Run_owner_created_at_idx" ON "Run"("owner", "created_at");
CREATE INDEX "Run_status_idx" ON "Run"("status");
CREATE INDEX "Run_lease_owner_idx" ON "Run"("lease_owner");
CREATE INDEX "Run_status_lease_until_idx" ON "Run"("status", "lease_until");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
