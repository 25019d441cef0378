-- CreateTable
CREATE TABLE "memory_stores" (
    "workflow_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "last_seq" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "memory_stores_pkey" PRIMARY KEY ("workflow_id","name")
);

-- CreateTable
CREATE TABLE "memory_documents" (
    "workflow_id" TEXT NOT NULL,
    "store" TEXT NOT NULL,
    "uri" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "content_key" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_documents_pkey" PRIMARY KEY ("workflow_id","store","uri")
);

-- CreateIndex
CREATE INDEX "memory_documents_workflow_id_store_seq_idx" ON "memory_documents"("workflow_id", "store", "seq");

-- CreateIndex
CREATE INDEX "memory_documents_workflow_id_store_content_key_idx" ON "memory_documents"("workflow_id", "store", "content_key");

-- AddForeignKey
ALTER TABLE "memory_stores" ADD CONSTRAINT "memory_stores_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memory_documents" ADD CONSTRAINT "memory_documents_workflow_id_store_fkey" FOREIGN KEY ("workflow_id", "store") REFERENCES "memory_stores"("workflow_id", "name") ON DELETE RESTRICT ON UPDATE CASCADE;

