// Validates configuration files against the JSON Schema with Ajv (draft 2020-12), one JSON line
// per file: {"file", "valid", "errors"}. YAML files are read with the `yaml` package (YAML 1.2, as
// the linter reads them); JSON files (TOML cases converted by the driver) as JSON.
// Usage: node ajv-validate.mjs SCHEMA FILE...
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import YAML from "yaml";

const [schemaPath, ...files] = process.argv.slice(2);
if (!schemaPath || files.length === 0) {
  console.error("usage: node ajv-validate.mjs SCHEMA FILE...");
  process.exit(2);
}
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
// The editors' annotation keyword (VS Code, yaml-language-server): documentation, not validation.
ajv.addKeyword({ keyword: "markdownDescription", schemaType: "string" });
const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, "utf8")));

for (const file of files) {
  const text = readFileSync(file, "utf8");
  let instance;
  try {
    instance = file.endsWith(".json")
      ? JSON.parse(text)
      : YAML.parse(text, { uniqueKeys: true, maxAliasCount: -1 });
  } catch (error) {
    console.log(JSON.stringify({ file, valid: false, errors: [`does not parse: ${error.message}`] }));
    continue;
  }
  const valid = validate(instance);
  const errors = (validate.errors || []).map(
    (error) => `${error.instancePath || "/"} ${error.message}${error.params && error.params.additionalProperty ? ` (${error.params.additionalProperty})` : ""}`,
  );
  console.log(JSON.stringify({ file, valid, errors }));
}
