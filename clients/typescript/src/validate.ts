// Every answer the client receives, checked against the committed contract (openapi/openapi.json):
// its status is one the operation documents, its media type one the status declares, its body valid
// against that media type's schema (JSON Schema 2020-12, as OpenAPI 3.1 writes it) and each header
// the status declares valid against its schema. An openapi-fetch middleware, so no call escapes it.
import { readFileSync } from "node:fs";

import Ajv2020 from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { Middleware } from "openapi-fetch";

interface HeaderObject {
  required?: boolean;
  schema?: { type?: string };
}

interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema?: object }>;
}

interface Operation {
  operationId: string;
  responses: Record<string, ResponseObject>;
}

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

/** One answer received, as the contract names it. */
export interface Exchange {
  operation: string;
  method: string;
  path: string;
  status: number;
}

const CONTRACT_ID = "https://contract.invalid/openapi.json";

function pointer(parts: string[]): string {
  return parts.map((part) => "/" + encodeURIComponent(part.replace(/~/g, "~0").replace(/\//g, "~1"))).join("");
}

export class ContractValidator {
  readonly exchanges: Exchange[] = [];
  readonly violations: string[] = [];
  private readonly document: OpenApiDocument;
  private readonly ajv: InstanceType<typeof Ajv2020.default>;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(contractPath: string) {
    this.document = JSON.parse(readFileSync(contractPath, "utf-8")) as OpenApiDocument;
    // strict: false because an OpenAPI schema may carry keywords of its own (`example`); every
    // JSON Schema keyword is still applied, and formats (date, date-time) are checked.
    this.ajv = new Ajv2020.default({ strict: false, allErrors: true, validateSchema: false });
    addFormats.default(this.ajv);
    this.ajv.addSchema(this.document as object, CONTRACT_ID);
  }

  middleware(): Middleware {
    return {
      onResponse: async ({ request, response, schemaPath }) => {
        await this.check(request.method, schemaPath, response);
        return undefined;
      },
    };
  }

  private validator(parts: string[]): ValidateFunction {
    const at = pointer(parts);
    let validate = this.compiled.get(at);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: `${CONTRACT_ID}#${at}` });
      this.compiled.set(at, validate);
    }
    return validate;
  }

  private async check(method: string, schemaPath: string, response: Response): Promise<void> {
    const where = `${method} ${schemaPath} → ${response.status}`;
    const lower = method.toLowerCase();
    const operation = this.document.paths[schemaPath]?.[lower];
    if (operation === undefined) {
      this.violations.push(`${where}: no such operation in the contract`);
      return;
    }
    this.exchanges.push({ operation: operation.operationId, method, path: schemaPath, status: response.status });
    const status = String(response.status);
    const declared = operation.responses[status] ?? operation.responses["default"];
    if (declared === undefined) {
      this.violations.push(`${where}: a status the operation does not document`);
      return;
    }
    const statusKey = operation.responses[status] === undefined ? "default" : status;
    const base = ["paths", schemaPath, lower, "responses", statusKey];

    for (const [name, header] of Object.entries(declared.headers ?? {})) {
      const value = response.headers.get(name);
      if (value === null) {
        if (header.required === true) this.violations.push(`${where}: required header ${name} missing`);
        continue;
      }
      if (header.schema === undefined) continue;
      const typed = header.schema.type === "integer" || header.schema.type === "number" ? Number(value) : value;
      const validate = this.validator([...base, "headers", name, "schema"]);
      if (!validate(typed)) {
        this.violations.push(`${where}: header ${name}: ${value}: ${this.ajv.errorsText(validate.errors)}`);
      }
    }

    const text = await response.clone().text();
    const content = declared.content ?? {};
    if (text === "" || method === "HEAD") {
      if (Object.keys(content).length > 0 && method !== "HEAD") {
        this.violations.push(`${where}: an empty body where the contract declares ${Object.keys(content).join(", ")}`);
      }
      return;
    }
    const mediaType = (response.headers.get("Content-Type") ?? "").split(";")[0]!.trim();
    const media = content[mediaType];
    if (media === undefined) {
      this.violations.push(`${where}: media type ${mediaType || "(none)"}, the contract declares ${Object.keys(content).join(", ") || "no body"}`);
      return;
    }
    if (media.schema === undefined) return;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      this.violations.push(`${where}: a body that is not JSON: ${text.slice(0, 200)}`);
      return;
    }
    const validate = this.validator([...base, "content", mediaType, "schema"]);
    if (!validate(body)) {
      this.violations.push(`${where}: ${this.ajv.errorsText(validate.errors, { separator: "; " })}`);
    }
  }
}
