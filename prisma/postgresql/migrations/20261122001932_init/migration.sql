-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "owner" TEXT NOT NULL DEFAULT '',
    "agent" TEXT NOT NULL DEFAULT 'default',
    "title" TEXT,
    "summary" TEXT,
    "summary_upto" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Message" (
    "id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "run_id" TEXT,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL,
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
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FunctionCall" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "caller_kind" TEXT NOT NULL,
    "caller" JSONB,
    "run_id" TEXT,
    "status" TEXT NOT NULL,
    "elapsed_ms" INTEGER NOT NULL,
    "error" TEXT,
    "params_summary" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FunctionCall_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DelayTask" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "owner" TEXT NOT NULL DEFAULT '',
    "run_at" TIMESTAMP(3) NOT NULL,
    "function_name" TEXT NOT NULL,
    "params" TEXT NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "result" TEXT,
    "error" TEXT,
    "executed_at" TIMESTAMP(3),
    "misfire_policy" TEXT NOT NULL DEFAULT 'missed',
    "catchup_window_ms" INTEGER NOT NULL DEFAULT 0,
    "target" TEXT NOT NULL DEFAULT 'function',
    "agent" TEXT,
    "session_id" TEXT,
    "message" TEXT,
    "traceparent" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DelayTask_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CronTask" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "owner" TEXT NOT NULL DEFAULT '',
    "cron_expr" TEXT NOT NULL,
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "function_name" TEXT NOT NULL,
    "params" TEXT NOT NULL DEFAULT '{}',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "until" TIMESTAMP(3),
    "max_runs" INTEGER NOT NULL DEFAULT 0,
    "run_count" INTEGER NOT NULL DEFAULT 0,
    "last_run_at" TIMESTAMP(3),
    "last_status" TEXT,
    "next_run_at" TIMESTAMP(3),
    "target" TEXT NOT NULL DEFAULT 'function',
    "agent" TEXT,
    "session_id" TEXT,
    "message" TEXT,
    "traceparent" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CronTask_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TaskFire" (
    "id" TEXT NOT NULL,
    "task_kind" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "scheduled_at" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL,
    "result" TEXT,
    "error" TEXT,
    "lateness_ms" INTEGER,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "TaskFire_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AgentProfile" (
    "name" TEXT NOT NULL,
    "owner" TEXT NOT NULL DEFAULT '',
    "spec" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AgentProfile_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "principal" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "revoked_at" TIMESTAMP(3),
    "last_used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Session_owner_updated_at_idx" ON "Session"("owner", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "Message_session_id_seq_key" ON "Message"("session_id", "seq");

-- CreateIndex
CREATE INDEX "Run_session_id_created_at_idx" ON "Run"("session_id", "created_at");

-- CreateIndex
CREATE INDEX "Run_owner_created_at_idx" ON "Run"("owner", "created_at");

-- CreateIndex
CREATE INDEX "Run_status_idx" ON "Run"("status");

-- CreateIndex
CREATE INDEX "FunctionCall_name_created_at_idx" ON "FunctionCall"("name", "created_at");

-- CreateIndex
CREATE INDEX "FunctionCall_run_id_idx" ON "FunctionCall"("run_id");

-- CreateIndex
CREATE UNIQUE INDEX "DelayTask_name_key" ON "DelayTask"("name");

-- CreateIndex
CREATE INDEX "DelayTask_status_run_at_idx" ON "DelayTask"("status", "run_at");

-- CreateIndex
CREATE INDEX "DelayTask_owner_idx" ON "DelayTask"("owner");

-- CreateIndex
CREATE UNIQUE INDEX "CronTask_name_key" ON "CronTask"("name");

-- CreateIndex
CREATE INDEX "CronTask_enabled_idx" ON "CronTask"("enabled");

-- CreateIndex
CREATE INDEX "CronTask_owner_idx" ON "CronTask"("owner");

-- CreateIndex
CREATE INDEX "TaskFire_task_id_scheduled_at_idx" ON "TaskFire"("task_id", "scheduled_at");

-- CreateIndex
CREATE UNIQUE INDEX "TaskFire_task_kind_task_id_scheduled_at_key" ON "TaskFire"("task_kind", "task_id", "scheduled_at");

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");

-- CreateIndex
CREATE INDEX "ApiKey_principal_idx" ON "ApiKey"("principal");

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "Session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "Session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FunctionCall" ADD CONSTRAINT "FunctionCall_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "Run"("id") ON DELETE SET NULL ON UPDATE CASCADE;
