import { createRequire } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from './render';
import type { K8sObject } from './render';

/**
 * Validation of rendered objects against the Kubernetes API schemas shipped by kubernetes-models:
 * its JSON-schema validators (types, formats such as quantities, required fields, enums), plus
 * a check for unknown fields, which those validators let through (a misspelt `readinesProbe`
 * would otherwise pass, and the API server would silently drop it). The unknown-field check
 * walks each object along the package's TypeScript declarations of the same schemas.
 */

const requireFromRepo = createRequire(join(REPO_ROOT, 'package.json'));

type ModelClass = new (data: unknown) => { validate(): void };

/** `apps/v1` → kubernetes-models/apps/v1; core `v1` → kubernetes-models/v1. */
function modelModule(apiVersion: string): string {
  return `kubernetes-models/${apiVersion}`;
}

function modelClass(object: K8sObject): ModelClass | undefined {
  let exports: Record<string, unknown>;
  try {
    exports = requireFromRepo(modelModule(object.apiVersion)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const model = exports[object.kind];
  return typeof model === 'function' ? (model as ModelClass) : undefined;
}

/** Problems of one object against its schema; a kind without a schema is a problem, never a pass. */
export function schemaProblems(object: K8sObject): string[] {
  const where = `${object.kind}/${object.metadata?.name}`;
  const Model = modelClass(object);
  if (!Model)
    return [
      `${where}: no Kubernetes schema for ${object.apiVersion} ${object.kind}, so it cannot be validated`,
    ];
  try {
    new Model(asSubmitted(object)).validate();
    return [];
  } catch (err) {
    return [`${where}: ${(err as Error).message}`];
  }
}

/**
 * kustomize wraps long base64 values of a Secret's `data` over several lines; the API server's
 * base64 decoder (Go's) skips line breaks, the schema's `byte` format does not.
 */
function asSubmitted(object: K8sObject): K8sObject {
  if (object.kind !== 'Secret' || !object.data) return object;
  const data = Object.fromEntries(
    Object.entries(object.data as Record<string, string>).map(([k, v]) => [k, v.replace(/[\r\n]/g, '')]),
  );
  return { ...object, data };
}

let declarations: { checker: ts.TypeChecker; program: ts.Program; roots: Set<string> } | undefined;

function declarationFile(object: K8sObject): string {
  return requireFromRepo
    .resolve(`${modelModule(object.apiVersion)}/${object.kind}`)
    .replace(/\.js$/, '.d.ts');
}

/** One TypeScript program over the declarations of every kind asked for so far. */
function checkerFor(files: string[]): ts.TypeChecker {
  if (!declarations || files.some((f) => !declarations!.roots.has(f))) {
    const roots = new Set([...(declarations?.roots ?? []), ...files]);
    const program = ts.createProgram([...roots], {
      noEmit: true,
      skipLibCheck: true,
      types: [],
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
    });
    declarations = { program, checker: program.getTypeChecker(), roots };
  }
  return declarations.checker;
}

function declaredType(checker: ts.TypeChecker, file: string, kind: string): ts.Type {
  const source = declarations!.program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  const symbol = module && checker.getExportsOfModule(module).find((s) => s.name === `I${kind}`);
  if (!symbol) throw new Error(`kubernetes-models declares no I${kind} in ${file}`);
  return checker.getDeclaredTypeOfSymbol(symbol);
}

/** Fields of the objects that their kind's schema does not have, as `Kind/name: .path.to.field`. */
export function unknownFieldProblems(objects: K8sObject[]): string[] {
  const known = objects.filter((o) => modelClass(o));
  const files = known.map(declarationFile);
  const checker = checkerFor(files);
  return known.flatMap((object, i) => {
    const problems: string[] = [];
    walk(checker, object, declaredType(checker, files[i], object.kind), '', problems);
    return problems.map((p) => `${object.kind}/${object.metadata.name}: ${p}`);
  });
}

function walk(checker: ts.TypeChecker, value: unknown, declared: ts.Type, path: string, out: string[]): void {
  if (value === null || typeof value !== 'object') return; // scalars: the schema validators judge them
  const type = checker.getNonNullableType(declared);
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return;
  if (type.isUnion()) {
    const shapes = type.types.filter(
      (t) => t.flags & ts.TypeFlags.Object && checker.isArrayType(t) === Array.isArray(value),
    );
    let best: string[] | undefined;
    for (const shape of shapes) {
      const found: string[] = [];
      walk(checker, value, shape, path, found);
      if (!best || found.length < best.length) best = found;
      if (!found.length) break;
    }
    out.push(...(best ?? []));
    return;
  }
  if (Array.isArray(value)) {
    if (!checker.isArrayType(type)) return;
    const [item] = checker.getTypeArguments(type as ts.TypeReference);
    value.forEach((element, i) => walk(checker, element, item, `${path}[${i}]`, out));
    return;
  }
  const index = checker.getIndexInfoOfType(type, ts.IndexKind.String);
  if (!checker.getPropertiesOfType(type).length && !index) return; // an open object (e.g. RawExtension)
  for (const [key, field] of Object.entries(value)) {
    const property = checker.getPropertyOfType(type, key);
    if (property) walk(checker, field, checker.getTypeOfSymbol(property), `${path}.${key}`, out);
    else if (index) walk(checker, field, index.type, `${path}.${key}`, out);
    else out.push(`${path}.${key} is not a field of ${checker.typeToString(type)}`);
  }
}
