/**
 * Maps Prisma's errors to RathError, so callers of the store see one error type. Both generated clients share
 * @prisma/client's runtime, so the errors are recognised by name and code rather than by class.
 */
import { isRathError, RathError } from "../../runtime/errors";

interface PrismaKnownError {
  name: string;
  code: string;
  message: string;
  meta?: Record<string, unknown>;
}

function isPrismaKnownError(error: unknown): error is PrismaKnownError {
  return (
    error instanceof Error &&
    error.name === "PrismaClientKnownRequestError" &&
    typeof (error as { code?: unknown }).code === "string"
  );
}

/** Returns a RathError for a Prisma error (unique violation -> conflict, missing row -> not_found); others as is. */
export function mapPrismaError(error: unknown): unknown {
  if (isRathError(error) || !isPrismaKnownError(error)) return error;
  const details = { prismaCode: error.code, ...(error.meta ?? {}) };
  switch (error.code) {
    case "P2002":
      return new RathError("conflict", `a row with the same unique key already exists (${describeTarget(error.meta)})`, {
        cause: error,
        details,
      });
    case "P2003":
      return new RathError("invalid_argument", `a referenced row does not exist (${describeTarget(error.meta)})`, {
        cause: error,
        details,
      });
    case "P2025":
      return new RathError("not_found", "the row to update or delete does not exist", { cause: error, details });
    case "P2010":
      return mapRawQueryError(error, details);
    default:
      return error;
  }
}

/** A raw statement's failure: the driver adapter names the kind (unique or foreign key violation) in `meta`. */
function mapRawQueryError(error: PrismaKnownError, details: Record<string, unknown>): unknown {
  const cause = (error.meta?.driverAdapterError as { cause?: { kind?: unknown; constraint?: unknown; originalMessage?: unknown } } | undefined)?.cause;
  const described = typeof cause?.originalMessage === "string" ? cause.originalMessage : describeTarget(error.meta);
  if (cause?.kind === "UniqueConstraintViolation") {
    return new RathError("conflict", `a row with the same unique key already exists (${described})`, { cause: error, details });
  }
  if (cause?.kind === "ForeignKeyConstraintViolation") {
    return new RathError("invalid_argument", `a referenced row does not exist (${described})`, { cause: error, details });
  }
  return error;
}

function describeTarget(meta: Record<string, unknown> | undefined): string {
  const target = meta?.target ?? meta?.field_name ?? meta?.constraint;
  if (target === undefined) return "constraint not reported";
  return Array.isArray(target) ? target.join(", ") : JSON.stringify(target);
}
