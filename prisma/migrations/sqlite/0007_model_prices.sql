-- CreateTable
CREATE TABLE "model_prices" (
    "model" TEXT NOT NULL PRIMARY KEY,
    "input_per_million" REAL NOT NULL,
    "output_per_million" REAL NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

