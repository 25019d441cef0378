-- CreateTable
CREATE TABLE "memory_stores" (
    "workflow_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "last_seq" INTEGER NOT NULL DEFAULT 0,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,

    PRIMARY KEY ("workflow_id", "name"),
    CONSTRAINT "memory_stores_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "memory_documents" (
    "workflow_id" TEXT NOT NULL,
    "store" TEXT NOT NULL,
    "uri" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "content_key" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("workflow_id", "store", "uri"),
    CONSTRAINT "memory_documents_workflow_id_store_fkey" FOREIGN KEY ("workflow_id", "store") REFERENCES "memory_stores" ("workflow_id", "name") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "memory_documents_workflow_id_store_seq_idx" ON "memory_documents"("workflow_id", "store", "seq");

-- CreateIndex
CREATE INDEX "memory_documents_workflow_id_store_content_key_idx" ON "memory_documents"("workflow_id", "store", "content_key");

