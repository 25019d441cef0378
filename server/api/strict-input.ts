/**
 * tRPC inputs refuse unknown keys, as the plain HTTP API does (a misspelt `priority` must not be ignored
 * silently): `strictInput(schema)` is the schema with its top-level object made strict, through `.optional()` and
 * `.default(...)` wrappers. The services keep their schemas as they are (internal callers may pass objects that
 * carry more than the request).
 */
import { z } from "zod";

/** What tRPC's infinite queries add to the input of a procedure that takes a `cursor`. */
const InfiniteDirection = z.enum(["forward", "backward"]).optional();

/**
 * The schema with its top-level object strict (unknown keys answer BAD_REQUEST "Unrecognized key"). A schema
 * with a `cursor` also accepts `direction`, which tRPC's `infiniteQueryOptions` sends with every page.
 */
export function strictInput<Schema extends z.ZodType>(schema: Schema): Schema {
  if (schema instanceof z.ZodObject) {
    const paged = "cursor" in schema.shape && !("direction" in schema.shape);
    return (paged ? schema.extend({ direction: InfiniteDirection }) : schema).strict() as unknown as Schema;
  }
  if (schema instanceof z.ZodOptional) return strictInput(schema.unwrap() as z.ZodType).optional() as unknown as Schema;
  if (schema instanceof z.ZodDefault) {
    const inner = strictInput(schema.def.innerType as z.ZodType);
    return inner.default(schema.def.defaultValue as never) as unknown as Schema;
  }
  throw new Error(`strictInput: expected an object schema (optionally wrapped in optional/default), found ${schema.constructor.name}`);
}
