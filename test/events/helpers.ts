import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { SCHEMA_DIR, isDecimal2 } from "../../pipeline/validate/ajv.ts";

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as unknown as FormatsPlugin;

/** Validates a document against one of schemas/ with the same Ajv setup as the pipeline's gate. */
export function schemaErrors(schema: string, doc: unknown): string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  ajv.addFormat("decimal2", { type: "number", validate: isDecimal2 });
  for (const f of readdirSync(SCHEMA_DIR).filter((n) => n.endsWith(".schema.json"))) {
    ajv.addSchema(JSON.parse(readFileSync(join(SCHEMA_DIR, f), "utf8")));
  }
  const validate = ajv.getSchema(schema);
  if (!validate) throw new Error(`schema ${schema} não encontrado`);
  return validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
}
