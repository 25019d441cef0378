-- CreateTable
CREATE TABLE "model_prices" (
    "model" TEXT NOT NULL,
    "input_per_million" DOUBLE PRECISION NOT NULL,
    "output_per_million" DOUBLE PRECISION NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "model_prices_pkey" PRIMARY KEY ("model")
);

