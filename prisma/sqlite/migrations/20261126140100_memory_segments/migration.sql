-- CreateTable
CREATE TABLE "MemorySegment" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "principal" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "iteration_index" INTEGER NOT NULL,
    "segment_index" INTEGER NOT NULL,
    "segment_type" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    CONSTRAINT "MemorySegment_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "MemorySegment_principal_session_id_idx" ON "MemorySegment"("principal", "session_id");

-- CreateIndex
CREATE INDEX "MemorySegment_principal_agent_idx" ON "MemorySegment"("principal", "agent");

-- CreateIndex
CREATE UNIQUE INDEX "MemorySegment_run_id_iteration_index_segment_index_key" ON "MemorySegment"("run_id", "iteration_index", "segment_index");


-- Full-text index over the segments' text (written by hand: Prisma has no FTS5). External
-- content: the text is stored once, in MemorySegment, and the triggers keep the index in step. The
-- owners are indexed too, so a search narrows to one principal (session, agent) inside the index.
CREATE VIRTUAL TABLE "MemorySegmentFts" USING fts5(
    "content",
    "principal",
    "session_id",
    "agent",
    content = 'MemorySegment',
    content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER "MemorySegment_fts_insert" AFTER INSERT ON "MemorySegment" BEGIN
    INSERT INTO "MemorySegmentFts" (rowid, "content", "principal", "session_id", "agent")
    VALUES (new."id", new."content", new."principal", new."session_id", new."agent");
END;

CREATE TRIGGER "MemorySegment_fts_delete" AFTER DELETE ON "MemorySegment" BEGIN
    INSERT INTO "MemorySegmentFts" ("MemorySegmentFts", rowid, "content", "principal", "session_id", "agent")
    VALUES ('delete', old."id", old."content", old."principal", old."session_id", old."agent");
END;

CREATE TRIGGER "MemorySegment_fts_update" AFTER UPDATE ON "MemorySegment" BEGIN
    INSERT INTO "MemorySegmentFts" ("MemorySegmentFts", rowid, "content", "principal", "session_id", "agent")
    VALUES ('delete', old."id", old."content", old."principal", old."session_id", old."agent");
    INSERT INTO "MemorySegmentFts" (rowid, "content", "principal", "session_id", "agent")
    VALUES (new."id", new."content", new."principal", new."session_id", new."agent");
END;
